// Every command the documentation shows is checked (the rules are at the top of doc-commands.ts and in
// docs/README.md): `npx fdq …` runs as a process against one sandbox this test starts on 127.0.0.1 (commands that
// name no base URL use the local sandbox's, which the test points at its own), with a fresh cache directory and no
// key of anyone's, and must exit with 0 or the status its page documents and print something; `npm run sandbox`
// and `npx fdq serve` start on a free port, are asked once and are stopped by their PID; npm scripts and files a
// page names must exist. Nothing talks to any other address: a command naming another host must be marked as not
// run.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import PQueue from "p-queue";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { testBin } from "../../support/fdq-bundle";
import { freePort } from "../../support/free-port";
import {
  commandsOf,
  docFiles,
  foreignUrls,
  isFdqCommand,
  matchOutput,
  normaliseOutput,
  PLACEHOLDERS,
  ROOT,
  uncheckedHelpListings,
  type ConsoleExample,
  type DocCommand,
  type PageCommands,
} from "./doc-commands";

const BIN = testBin();
const pages: [string, PageCommands][] = docFiles().map((file) => [
  file,
  commandsOf(readFileSync(path.join(ROOT, file), "utf8"), file),
]);
const commands = pages.flatMap(([, page]) => page.commands);
const examples = pages.flatMap(([, page]) => page.examples);
const scripts = Object.keys(
  (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
    .scripts,
);

// Two processes at a time: the machine has two cores, and each fdq process spends most of its second loading.
const processes = new PQueue({ concurrency: 2 });
let sandbox: Promise<RunningSandbox> | undefined;
const shared = () => (sandbox ??= startSandbox());
const scratch = mkdtempSync(path.join(tmpdir(), "fdq-docs-"));

afterAll(async () => {
  if (sandbox) await (await sandbox).close();
  rmSync(scratch, { recursive: true, force: true });
});

/** This process's environment without FDQ_* settings, pointed at the test's sandbox and cache directory. */
async function environment(dir: string): Promise<NodeJS.ProcessEnv> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("FDQ_")));
  const box = await shared();
  return {
    ...env,
    FDQ_BASE_URL: box.baseUrl,
    FDQ_API_KEY: box.demoKey,
    FDQ_CACHE_DIR: dir,
    XDG_CACHE_HOME: dir,
    FDQ_BIN: BIN,
  };
}

/** The page's command as this test runs it: fdq from BIN, the local sandbox's URL the test's own. */
async function asRun(command: string): Promise<string> {
  const box = await shared();
  return command
    .replace(/\bnpx (--no-install )?fdq\b/g, 'node "$FDQ_BIN"')
    .replace(/https?:\/\/(127\.0\.0\.1|localhost):4010\/v1/g, box.baseUrl);
}

interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

function runToEnd(command: string, env: NodeJS.ProcessEnv): Promise<Finished> {
  return new Promise((resolve) => {
    execFile("bash", ["-c", command], { cwd: ROOT, env, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** Starts a server command on a free port, waits for the URL it prints, asks it once, stops it by its PID. */
async function serveOnce(
  doc: DocCommand,
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; status: number; code: number | null }> {
  let command = (await asRun(doc.command)).replace(/--port\s+\d+/, "--port 0");
  if (!/--port\s/.test(command)) command += " --port 0";
  if (doc.kind.kind === "server" && doc.kind.program === "sandbox")
    command = command.replace(/^npm run sandbox(\s+--)?/, "node --import tsx src/sandbox/main.ts");
  // exec: the PID is the server's own, so SIGTERM reaches it and nothing stays on the port.
  const child = spawn("bash", ["-c", `exec ${command}`], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  let stdout = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${doc.where}: no URL printed within 20 s`)), 20_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /(https?:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.stderr.resume();
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${doc.where}: exited before printing its URL`));
    });
  });
  const probe = doc.kind.kind === "server" && doc.kind.program === "sandbox" ? "/__usage" : "/healthz";
  const status = (await fetch(url + probe)).status;
  child.kill("SIGTERM");
  return { url, status, code: await exited };
}

describe("the commands the documentation shows", () => {
  it("finds the commands of the README and every docs page, the README's set-up among them", () => {
    const readme = pages.find(([file]) => file === "README.md")![1].commands.map((c) => c.command);
    expect(readme).toContain("npm test");
    expect(readme).toContain("npx fdq eval --sandbox -f examples/model.txt");
    expect(commands.filter((c) => c.kind.kind === "fdq").length).toBeGreaterThan(5);
  });

  it("knows every command: each is run or checked, or its block says why it is not run", () => {
    const unknown = commands.filter((c) => c.kind.kind === "unknown").map((c) => `${c.where}: ${c.command}`);
    expect(unknown).toEqual([]);
    const misplaced = pages.flatMap(([, page]) => page.misplaced);
    expect(misplaced).toEqual([]);
    for (const [, page] of pages)
      for (const skip of page.skipped) expect(skip.reason.length).toBeGreaterThan(5);
  });

  it("runs nothing against another machine: commands naming another host are marked as not run", () => {
    const foreign = commands
      .filter((c) => c.kind.kind === "fdq" || c.kind.kind === "server")
      .filter((c) => foreignUrls(c.command).length > 0)
      .map((c) => `${c.where}: ${c.command}`);
    expect(foreign).toEqual([]);
  });

  it("names only npm scripts, files and tools that exist", () => {
    const missing = commands.flatMap((c) => {
      if (c.kind.kind === "script" && !scripts.includes(c.kind.name))
        return [`${c.where}: npm script ${c.kind.name}`];
      const files = c.kind.kind === "file" ? [c.kind.file] : c.kind.kind === "tool" ? c.kind.files : [];
      if (c.kind.kind === "tool") files.push(`node_modules/.bin/${c.kind.bin}`);
      return files
        .filter((f) => !existsSync(path.join(ROOT, f)))
        .map((f) => `${c.where}: ${f} does not exist`);
    });
    expect(missing).toEqual([]);
  });

  // A command that a ```console example also shows runs there, where its output is compared too: once is enough.
  const bare = (command: string) =>
    command.replace(/^npx --no-install fdq\b/, "npx fdq").replace(/\s+#.*$/, "");
  const shown = new Set(examples.map((e) => bare(e.command)));
  const runnable = commands.filter(
    (c) => c.kind.kind === "fdq" && foreignUrls(c.command).length === 0 && !shown.has(bare(c.command)),
  );
  it.concurrent.each(runnable.map((c) => [`${c.where}: ${c.command}`, c] as const))(
    "%s",
    async (_name, doc) => {
      const dir = mkdtempSync(path.join(scratch, "run-"));
      const env = await environment(dir);
      const command = await asRun(doc.command);
      const result = await processes.add(() => runToEnd(command, env));
      const output = result.stdout + result.stderr;
      expect({ where: doc.where, code: result.code }).toEqual({ where: doc.where, code: doc.exit });
      expect(output.trim()).not.toBe("");
      // The command reached the sandbox: no cell says it could not, or that the key was refused.
      expect(output).not.toMatch(/Could not reach the FDQ service|refused the API key/);
    },
    120_000,
  );

  const servers = commands.filter((c) => c.kind.kind === "server" && foreignUrls(c.command).length === 0);
  it.concurrent.each(servers.map((c) => [`${c.where}: ${c.command}`, c] as const))(
    "%s (started on a free port, asked once, stopped by its PID)",
    async (_name, doc) => {
      const dir = mkdtempSync(path.join(scratch, "serve-"));
      const env = await environment(dir);
      const result = await processes.add(() => serveOnce(doc, env));
      expect(result.status).toBe(200);
      expect(result.code).toBe(0);
    },
    120_000,
  );
});

// FDQ_UPDATE_DOCS=1 writes what each example printed into its page instead of failing, for the examples whose
// output has no placeholder and no `…` (those are written by hand: the test then fails as usual).
const updating = process.env.FDQ_UPDATE_DOCS === "1";
const printedBy = new Map<ConsoleExample, string>();
const handWritten = (example: ConsoleExample): boolean =>
  example.expected.some(
    (line) => line.trim() === "…" || Object.keys(PLACEHOLDERS).some((p) => line.includes(p)),
  );

afterAll(() => {
  if (!updating) return;
  for (const [file, page] of pages) {
    const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
    // Last example first, so the line numbers of the earlier ones stay right.
    for (const example of [...page.examples].reverse()) {
      const printed = printedBy.get(example);
      if (printed === undefined || handWritten(example)) continue;
      lines.splice(example.outputAt, example.expected.length, ...normaliseOutput(printed));
    }
    writeFileSync(path.join(ROOT, file), lines.join("\n"));
  }
});

describe("the output the documentation shows (```console blocks)", () => {
  it("finds the examples, fdq --help among them", () => {
    expect(examples.map((e) => e.command)).toContain("npx --no-install fdq --help");
  });

  it("shows only fdq commands in ```console blocks", () => {
    const others = examples.filter((e) => !isFdqCommand(e.command)).map((e) => `${e.where}: ${e.command}`);
    expect(others).toEqual([]);
  });

  it("shows every fdq --help listing as a checked ```console example, never as shown text", () => {
    const unchecked = docFiles().flatMap((file) =>
      uncheckedHelpListings(readFileSync(path.join(ROOT, file), "utf8"), file),
    );
    expect(unchecked).toEqual([]);
  });

  const run = examples.filter((e) => isFdqCommand(e.command) && foreignUrls(e.command).length === 0);
  it.concurrent.each(run.map((e) => [`${e.where}: ${e.command}`, e] as const))(
    "%s prints what the page shows",
    async (_name, example) => {
      const dir = mkdtempSync(path.join(scratch, "example-"));
      const env = await environment(dir);
      const result = await processes.add(async () => runToEnd(await asRun(example.command), env));
      const printed = result.stdout + result.stderr;
      printedBy.set(example, printed);
      expect({ where: example.where, code: result.code }).toEqual({
        where: example.where,
        code: example.exit,
      });
      if (updating && !handWritten(example)) return;
      expect({ where: example.where, ...matchOutput(example.expected, printed) }).toEqual({
        where: example.where,
        ok: true,
      });
    },
    120_000,
  );
});

describe("installing the fdq command, as the pages say", () => {
  const installs = [...new Set(commands.filter((c) => c.kind.kind === "install").map((c) => c.command))];

  it("is shown on the README and on the command line's page", () => {
    const where = commands.filter((c) => c.kind.kind === "install").map((c) => c.where.split(":")[0]);
    expect(new Set(where)).toEqual(new Set(["README.md", "docs/command-line.md"]));
  });

  // In a prefix of its own (nothing of this machine's npm changes), with the registry at a closed port of 127.0.0.1
  // and none of the npm_* variables an `npm test` run passes down (npm_config_local_prefix would point npx at the
  // clone from anywhere): the install must need no network, and `npx --no-install fdq` outside the clone must find
  // it there, where before the install it finds nothing.
  async function npmEnvironment(prefix: string): Promise<NodeJS.ProcessEnv> {
    const own = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD"),
    );
    return {
      ...own,
      npm_config_prefix: prefix,
      npm_config_registry: `http://127.0.0.1:${await freePort()}/`,
      npm_config_fetch_retries: "0",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    };
  }

  function npxHelp(cwd: string, env: NodeJS.ProcessEnv): Promise<Finished> {
    return new Promise((resolve) =>
      execFile(
        "bash",
        ["-c", "npx --no-install fdq --help"],
        { cwd, env, timeout: 60_000 },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
      ),
    );
  }

  it.each(installs)(
    "%s works with no registry, and then npx --no-install fdq runs outside the clone",
    async (install) => {
      const prefix = mkdtempSync(path.join(scratch, "prefix-"));
      const elsewhere = mkdtempSync(path.join(tmpdir(), "fdq-elsewhere-"));
      const env = await npmEnvironment(prefix);
      try {
        const before = await npxHelp(elsewhere, env);
        expect(before.code).not.toBe(0);
        expect(before.stdout).toBe("");
        const installed = await runToEnd(install, env);
        expect({ install, code: installed.code, stderr: installed.stderr }).toEqual({
          install,
          code: 0,
          stderr: "",
        });
        const help = await npxHelp(elsewhere, env);
        expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: "" });
        expect(help.stdout).toMatch(/^Usage:\n {2}fdq eval \[options\] FORMULA\.\.\./);
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    },
    120_000,
  );
});

describe("reading commands out of a page", () => {
  const page = [
    "```sh",
    "npx fdq eval --sandbox '=FDQ.RATING(\"AAPL\")'   # a comment",
    "npm ci && npx fdq search roic \\",
    "  --limit 2",
    "```",
    "```text",
    "npx fdq not-a-command",
    "```",
    "<!-- docs-test: not run: needs the real service and a key -->",
    "```sh",
    "npx fdq eval --base-url https://api.example.com/v1 '=FDQ.RATING(\"AAPL\")'",
    "```",
    "<!-- docs-test: exit 3 -->",
    "```sh",
    "npx fdq eval --sandbox --budget 1 -f examples/model.txt",
    "curl https://example.com",
    "```",
  ].join("\n");
  const read = commandsOf(page, "page.md");

  it("takes ```sh blocks, joins continuation lines and splits && parts", () => {
    expect(read.commands.map((c) => [c.where, c.command, c.kind.kind, c.exit])).toEqual([
      ["page.md:2", "npx fdq eval --sandbox '=FDQ.RATING(\"AAPL\")'   # a comment", "fdq", 0],
      ["page.md:3", "npm ci", "file", 0],
      ["page.md:3", "npx fdq search roic --limit 2", "fdq", 0],
      ["page.md:15", "npx fdq eval --sandbox --budget 1 -f examples/model.txt", "fdq", 3],
      ["page.md:16", "curl https://example.com", "unknown", 3],
    ]);
  });

  it("skips a block marked not run, with its reason, and ```text blocks", () => {
    expect(read.skipped).toEqual([{ where: "page.md:10", reason: "needs the real service and a key" }]);
    expect(read.misplaced).toEqual([]);
  });

  it("reports a marker that does not stand before a ```sh fence", () => {
    expect(commandsOf("<!-- docs-test: not run: x y z -->\n\nSome text.\n", "p.md").misplaced).toEqual([
      "p.md:1",
    ]);
    expect(commandsOf("<!-- docs-test: run it -->\n```sh\nnpm test\n```\n", "p.md").misplaced).toEqual([
      "p.md:1",
    ]);
  });

  it("flags URLs of other hosts, not the local sandbox's", () => {
    expect(foreignUrls("npx fdq eval --base-url http://127.0.0.1:4010/v1 x")).toEqual([]);
    expect(foreignUrls("npx fdq serve --upstream https://api.newconstructs.com/v1")).toEqual([
      "https://api.newconstructs.com/v1",
    ]);
  });
});
