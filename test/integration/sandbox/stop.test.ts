// Stopping `npm run sandbox` stops the server: nothing keeps listening on its port and no process of it remains.
// Tried the two ways it is stopped: SIGTERM to npm's own process (what `kill`, a process manager or CI sends) and
// Ctrl+C, which the terminal sends as SIGINT to the whole foreground process group.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { freePort } from "../../support/free-port";

const ROOT = path.resolve(__dirname, "../../..");
/** npm's process of each run; each leads its own process group (detached), killed whole in afterAll. */
const groups: number[] = [];

afterAll(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Live (not zombie) processes of a process group; on systems without /proc, whether the group exists. */
function liveMembers(pgid: number): string[] {
  if (!existsSync("/proc/self/stat")) {
    try {
      process.kill(-pgid, 0);
      return [`process group ${pgid}`];
    } catch {
      return [];
    }
  }
  const members: string[] = [];
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after its last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z")
      members.push(`${entry} ${stat.slice(0, stat.lastIndexOf(")") + 1)}`);
  }
  return members;
}

/** Polls `probe` every 100 ms until it returns true or `ms` have passed; returns its last answer. */
async function within(ms: number, probe: () => boolean | Promise<boolean>): Promise<boolean> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts `npm run sandbox -- --port PORT` in a process group of its own; resolves once the port answers. */
async function startNpmSandbox(): Promise<{ npm: number; port: number; output: () => string }> {
  const port = await freePort();
  const child = spawn("npm", ["run", "sandbox", "--", "--port", String(port)], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid as number;
  groups.push(pid);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const up = await within(60_000, () => listening(port));
  if (!up) throw new Error(`npm run sandbox did not listen on ${port}:\n${output}`);
  expect(output).toContain(`FDQ sandbox listening at http://127.0.0.1:${port}/v1`);
  return { npm: pid, port, output: () => output };
}

describe("stopping npm run sandbox", () => {
  it("SIGTERM to npm's process closes the port and leaves no process behind", async () => {
    const { npm, port, output } = await startNpmSandbox();
    process.kill(npm, "SIGTERM");
    expect([await within(5000, async () => !(await listening(port))), output()]).toEqual([true, output()]);
    expect(await within(5000, () => liveMembers(npm).length === 0)).toBe(true);
    expect(liveMembers(npm)).toEqual([]);
  }, 90_000);

  it("Ctrl+C (SIGINT to the process group) closes the port and leaves no process behind", async () => {
    const { npm, port, output } = await startNpmSandbox();
    process.kill(-npm, "SIGINT");
    expect([await within(5000, async () => !(await listening(port))), output()]).toEqual([true, output()]);
    expect(await within(5000, () => liveMembers(npm).length === 0)).toBe(true);
    expect(liveMembers(npm)).toEqual([]);
  }, 90_000);
});
