// Stopping `fdq serve` however it was started leaves nothing on its port and no process of it behind: `npx fdq
// serve` and an `npm run` script (npm runs fdq through `sh -c`, and Debian's sh dies of the SIGTERM npm passes it
// without passing it on), and `node bin/fdq.js serve` itself. Each run leads a process group of its own
// (detached), so every process it started is found by PID and killed in afterAll whatever happens.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../support/free-port";
import { ROOT, SOURCE_BIN as BIN } from "./run-fdq";

const groups: number[] = [];
const folders: string[] = [];

afterAll(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-stop-"));
  folders.push(dir);
  return dir;
}

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

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly state: string;
  readonly name: string;
}

/** Every process of /proc (Linux), zombies included (state "Z"). */
function processes(): Proc[] {
  const all: Proc[] = [];
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after its last ")".
    const close = stat.lastIndexOf(")");
    const [state = "", ppid, pgrp] = stat.slice(close + 2).split(" ");
    all.push({
      pid: Number(entry),
      ppid: Number(ppid),
      pgrp: Number(pgrp),
      state,
      name: stat.slice(stat.indexOf("(") + 1, close),
    });
  }
  return all;
}

const live = (p: Proc): boolean => p.state !== "Z" && p.state !== "X";

/** `pid` and its descendants, alive now. */
function tree(pid: number): Proc[] {
  const all = processes().filter(live);
  const found = all.filter((p) => p.pid === pid);
  for (let i = 0; i < found.length; i++) {
    found.push(...all.filter((p) => p.ppid === (found[i] as Proc).pid));
  }
  return found;
}

/** Which of `pids` are still alive (not zombies): the test's answer is by PID, not by name. */
function alive(pids: readonly number[]): number[] {
  const now = new Map(processes().map((p) => [p.pid, p]));
  return pids.filter((pid) => {
    const p = now.get(pid);
    return p !== undefined && live(p);
  });
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

interface Started {
  /** The process the test started (npm's, or node's). */
  readonly top: number;
  /** Every process of the run once it listened: npm, sh, node (fdq), esbuild (tsx's service). */
  readonly pids: number[];
  readonly port: number;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `command` (a way of running `fdq serve ... --port PORT`) in its own process group; waits for the port. */
async function start(command: string, args: (port: number, store: string) => string[], cwd = ROOT) {
  const port = await freePort();
  const upstream = `http://127.0.0.1:${await freePort()}/v1`; // nothing listens: no request is made
  const child = spawn(command, args(port, tempDir()).concat(["--upstream", upstream]), {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
  });
  const top = child.pid as number;
  groups.push(top);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // fdq prints its "listening" line just after the port opens: wait for both.
  const line = `fdq serve: listening on http://127.0.0.1:${port}`;
  const up = await within(60_000, async () => output.includes(line) && (await listening(port)));
  if (!up)
    throw new Error(`${command} ${args(port, "STORE").join(" ")} did not listen on ${port}:\n${output}`);
  const pids = tree(top).map((p) => p.pid);
  return { top, pids, port, output: () => output, exited } satisfies Started;
}

/** The port is free and none of the run's processes is alive within 5 s of the signal. */
async function expectStopped(run: Started): Promise<void> {
  const free = await within(5000, async () => !(await listening(run.port)));
  expect({ free, output: run.output() }).toEqual({ free: true, output: run.output() });
  await within(5000, () => alive(run.pids).length === 0);
  expect(alive(run.pids)).toEqual([]);
  expect(run.output()).toContain("fdq serve: stopping (finishing the requests in flight)");
  // Without dist/ the gateway says so once, and nothing else does (serveStatic printed a line of its own).
  expect(run.output()).not.toContain("serveStatic");
  expect(run.output().match(/holds no build/g)?.length ?? 0).toBeLessThanOrEqual(1);
}

const onLinux = existsSync("/proc/self/stat") ? describe : describe.skip;
if (!existsSync("/proc/self/stat")) {
  process.stdout.write("stop.test.ts: skipped, it reads processes from /proc (Linux only)\n");
}

onLinux("stopping fdq serve", () => {
  it("SIGTERM to npx's process: fdq stops too (it was running under npm's sh)", async () => {
    const run = await start("npx", (port, store) => ["fdq", "serve", "--port", `${port}`, "--store", store]);
    // What the users' runs look like: npm, the shell it runs fdq through, and fdq's node process.
    const names = processes()
      .filter((p) => run.pids.includes(p.pid))
      .map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["sh", "node"]));
    process.kill(run.top, "SIGTERM");
    await expectStopped(run);
  }, 90_000);

  it("Ctrl+C (SIGINT to the process group) of npx fdq serve", async () => {
    const run = await start("npx", (port, store) => ["fdq", "serve", "--port", `${port}`, "--store", store]);
    process.kill(-run.top, "SIGINT");
    await expectStopped(run);
  }, 90_000);

  it("SIGTERM to npm's process of an `npm run` script that runs fdq serve", async () => {
    const project = tempDir();
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "team-gateway", private: true, scripts: { gateway: `node "${BIN}" serve` } }),
    );
    const run = await start(
      "npm",
      (port, store) => ["run", "--silent", "gateway", "--", "--port", `${port}`, "--store", store],
      project,
    );
    process.kill(run.top, "SIGTERM");
    await expectStopped(run);
  }, 90_000);

  it("SIGTERM to `node bin/fdq.js serve`: status 0", async () => {
    const run = await start(process.execPath, (port, store) => [
      BIN,
      "serve",
      "--port",
      `${port}`,
      "--store",
      store,
    ]);
    process.kill(run.top, "SIGTERM");
    await expectStopped(run);
    expect(await run.exited).toBe(0);
  }, 90_000);
});
