// What a new user sees when a command cannot run, as processes (bin/fdq.js): one line starting with "fdq:" that
// says what to do, and the status of the exit-code table (src/cli/exit-codes.ts).
import { createServer, type Server } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { EXIT } from "../../../src/cli/exit-codes";
import { runFdq } from "./run-fdq";

const HINT = 'Run "fdq --help" for the usage.\n';
const store = mkdtempSync(path.join(tmpdir(), "fdq-messages-"));
const env = { ...process.env, FDQ_API_KEY: "", FDQ_BASE_URL: "", FDQ_CACHE_DIR: store };

afterAll(() => rmSync(store, { recursive: true, force: true }));

describe("fdq serve", () => {
  let taken: Server | undefined;
  afterEach(() => taken?.close());

  it("on a port another program holds: status 1 and what to do, nothing else on stderr", async () => {
    taken = createServer();
    await new Promise<void>((done) => taken?.listen(0, "127.0.0.1", done));
    const port = (taken.address() as { port: number }).port;
    const run = await runFdq(
      ["serve", "--upstream", "http://127.0.0.1:9/v1", "--port", `${port}`, "--store", store],
      env,
    );
    expect(run).toEqual({
      code: EXIT.failure.code,
      stdout: "",
      stderr:
        `fdq: cannot listen on 127.0.0.1:${port}: another program uses port ${port}. Stop it, or choose another ` +
        "port with --port N (--port 0 picks a free one and prints it).\n",
    });
  });

  it("--upstream without /v1: status 2 and the URL to give", async () => {
    const run = await runFdq(["serve", "--upstream", "http://127.0.0.1:4010", "--port", "0"], env);
    expect(run).toEqual({
      code: EXIT.usage.code,
      stdout: "",
      stderr:
        "fdq: --upstream must be the FDQ base URL including /v1: give --upstream http://127.0.0.1:4010/v1 " +
        `(not http://127.0.0.1:4010).\n${HINT}`,
    });
  });
});

describe("fdq eval", () => {
  it("-f with a file that does not exist: a usage error (status 2), as the docs and --help say", async () => {
    const missing = path.join(store, "missing.txt");
    expect(await runFdq(["eval", "-f", missing], env)).toEqual({
      code: EXIT.usage.code,
      stdout: "",
      stderr: `fdq: cannot read ${missing}: there is no such file.\n${HINT}`,
    });
  });

  it("an unknown option: status 2, the command's options named, quotes balanced", async () => {
    const run = await runFdq(["eval", "--frobnicate", '=FDQ.RATING("AAPL")'], env);
    expect(run.code).toBe(EXIT.usage.code);
    expect(run.stderr).toBe(
      "fdq: fdq eval has no option --frobnicate. Its options: --base-url, --api-key, --cache-dir, --no-cache, " +
        "--sandbox, --stats, --concurrency, -h/--help, --billing, --budget, -f/--file, --json, --values-only, " +
        "--with-source, --card-metric.\n" +
        HINT,
    );
  });
});
