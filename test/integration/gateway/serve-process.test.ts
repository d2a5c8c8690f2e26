// `fdq serve` as a process (bin/fdq.js, as `npx fdq serve` runs it) in front of an in-process sandbox: it
// prints its URL, a second client process costs no upstream request for what the first one fetched today,
// and SIGTERM to its PID stops it with status 0.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { BIN, ROOT, runFdq } from "../cli/run-fdq";
import { filesUnder, tempDir } from "./helpers";

let sandbox: RunningSandbox | undefined;
let child: ChildProcess | undefined;

afterEach(async () => {
  if (child && child.exitCode === null && child.pid !== undefined) {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  child = undefined;
  await sandbox?.close();
  sandbox = undefined;
});

/** The first line the process writes on stdout. */
function firstLine(proc: ChildProcess, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output.text += chunk.toString();
      const end = output.text.indexOf("\n");
      if (end >= 0) {
        proc.stdout?.off("data", onData);
        proc.stdout?.on("data", (more: Buffer) => (output.text += more.toString()));
        resolve(output.text.slice(0, end).trim());
      }
    };
    proc.stdout?.on("data", onData);
    proc.once("exit", (code) => reject(new Error(`fdq serve exited with ${code}`)));
  });
}

test("fdq serve prints its URL, shares one day's answers between client processes and stops on SIGTERM", async () => {
  sandbox = await startSandbox({ port: 0 });
  const store = tempDir();
  const env = { ...process.env, FDQ_API_KEY: "", FDQ_BASE_URL: "" };
  child = spawn(
    process.execPath,
    [BIN, "serve", "--upstream", sandbox.baseUrl, "--port", "0", "--store", store],
    { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const stdout = { text: "" };
  const url = await firstLine(child, stdout);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const formula = '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)';
  const evalArgs = ["eval", "--base-url", `${url}/v1`, "--api-key", sandbox.demoKey, "--no-cache", "--json"];
  const first = await runFdq([...evalArgs, formula], env);
  expect(first.code).toBe(0);
  const afterFirst = sandbox.stats().requests;
  expect(afterFirst).toBeGreaterThan(0);
  const second = await runFdq([...evalArgs, formula], env);
  expect(second.code).toBe(0);
  expect(second.stdout).toBe(first.stdout);
  expect(JSON.parse(first.stdout.trim()) as { value: unknown }).toHaveProperty("value");
  expect(sandbox.stats().requests).toBe(afterFirst);

  const health = await fetch(`${url}/healthz`);
  // Both runs are over: no upstream slot is in use (the default budget of 64, 6 per account).
  expect(await health.json()).toEqual({
    ok: true,
    upstream: { budget: 64, perAccount: 6, inFlight: 0, waiting: 0, accounts: 0, share: 6, byAccount: [] },
  });

  const exited = new Promise<number | null>((resolve) => child?.once("exit", (code) => resolve(code)));
  process.kill(child.pid as number, "SIGTERM");
  expect(await exited).toBe(0);

  // The key is in no log line and no file of the store.
  const key = sandbox.demoKey;
  expect(stdout.text).not.toContain(key);
  expect(stderr).not.toContain(key);
  expect(stdout.text).toContain('"cache":"hit"');
  const files = filesUnder(store);
  expect(files.some((f) => path.basename(f.file) === "usage.json")).toBe(true);
  for (const f of files) expect(f.text).not.toContain(key);
});

test("fdq serve refuses an http upstream that is not localhost (usage error, status 2)", async () => {
  const run = await runFdq(["serve", "--upstream", "http://api.example.com/v1", "--port", "0"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("https://");
});
