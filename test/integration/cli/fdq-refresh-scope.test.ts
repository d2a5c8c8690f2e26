// `fdq refresh --sheet NAME` and `--only errors|stale`: only the FDQ cells of the scope are asked for (counted
// at the sandbox) and priced by --budget; every other FDQ cell keeps its value, byte for byte.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { smallBook } from "../../support/small-book";
import { serviceNumber } from "../functions/sandbox-oracle";
import { runFdq, type Run } from "./run-fdq";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(() => sandbox.close());

const run = (args: string[], cache: string[] = ["--no-cache"]): Promise<Run> =>
  runFdq(["refresh", ...args, "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, ...cache]);

const roic = (t: string): string => `FDQ.DATAPOINT("${t}","metrics/roic","ROIC",2023)`;

/** Each test runs fdq as a process, several times for some: minutes on a loaded machine. */
jest.setTimeout(180_000);

const BOOK = smallBook({
  Inputs: { A1: { f: roic("AAPL"), v: 0.5 }, A2: { f: roic("MSFT"), e: "#N/A" } },
  Model: { A1: { f: roic("NFLX"), v: 0.7 }, B1: { f: "Inputs!A1*2", v: 1 }, B2: { f: "A1*2", v: 1.4 } },
});

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

function setUp(): { dir: string; book: string; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-scope-"));
  const book = path.join(dir, "model.xlsx");
  writeFileSync(book, BOOK);
  return { dir, book, out: path.join(dir, "out.xlsx") };
}

function parts(file: string): Record<string, string> {
  const files = unzipSync(new Uint8Array(readFileSync(file)));
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, text(v)]));
}

/**
 * Requests the sandbox answered while `fn` ran. A run without today's coverage list in its cache asks it
 * before its first data request (1 request, 1 unit).
 */
async function counted(fn: () => Promise<Run>): Promise<{ run: Run; requests: number }> {
  const before = sandbox.stats().requests;
  const result = await fn();
  return { run: result, requests: sandbox.stats().requests - before };
}

describe("fdq refresh --sheet NAME", () => {
  it("asks only for the FDQ cells of that sheet and keeps the other sheets byte for byte", async () => {
    const { book, out } = setUp();
    const { run: r, requests } = await counted(() => run([book, "-o", out, "--sheet", "model"]));
    expect(r.code).toBe(0);
    expect(requests).toBe(1 + 1);
    expect(r.stdout).toMatch(/^Refreshed 1 FDQ cell of sheet model, recomputed 1 dependent, /);
    const before = parts(book);
    const after = parts(out);
    expect(after["xl/worksheets/sheet1.xml"]).toBe(before["xl/worksheets/sheet1.xml"]);
    const nflx = await serviceNumber(sandbox, "metrics/roic/NFLX?datapoint=ROIC&year=2023");
    expect(after["xl/worksheets/sheet2.xml"]).toContain(`<c r="A1"><f>${roic("NFLX")}</f><v>${nflx}</v></c>`);
    // B1 reads Inputs!A1, outside the scope: it is not recomputed; B2 reads the refreshed A1.
    expect(after["xl/worksheets/sheet2.xml"]).toContain('<c r="B1"><f>Inputs!A1*2</f><v>1</v></c>');
    expect(after["xl/worksheets/sheet2.xml"]).toContain(`<c r="B2"><f>A1*2</f><v>${nflx * 2}</v></c>`);
  });

  it("refuses a sheet the workbook does not have, naming its sheets, before any request", async () => {
    const { book, out } = setUp();
    const { run: r, requests } = await counted(() => run([book, "-o", out, "--sheet", "Nope"]));
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: 'fdq refresh: the workbook has no sheet "Nope"; its sheets are "Inputs", "Model"\n',
    });
    expect(requests).toBe(0);
  });
});

describe("fdq refresh --only errors", () => {
  it("asks only for the FDQ cells showing an error; the others keep their values", async () => {
    const { book, out } = setUp();
    const { run: r, requests } = await counted(() => run([book, "-o", out, "--only", "errors"]));
    expect(r.code).toBe(0);
    expect(requests).toBe(1 + 1);
    expect(r.stdout).toMatch(/^Refreshed 1 FDQ cell in error, recomputed 0 dependents, /);
    const after = parts(out);
    expect(after["xl/worksheets/sheet2.xml"]).toBe(parts(book)["xl/worksheets/sheet2.xml"]);
    const msft = await serviceNumber(sandbox, "metrics/roic/MSFT?datapoint=ROIC&year=2023");
    expect(after["xl/worksheets/sheet1.xml"]).toContain(`<c r="A2"><f>${roic("MSFT")}</f><v>${msft}</v></c>`);
    expect(after["xl/worksheets/sheet1.xml"]).toContain(`<c r="A1"><f>${roic("AAPL")}</f><v>0.5</v></c>`);
  });

  it("--budget prices the scope: 2 units (the coverage list and the value) are enough for the error cell, not for the whole workbook", async () => {
    const { book, out } = setUp();
    const scoped = await counted(() => run([book, "-o", out, "--only", "errors", "--budget", "2"]));
    expect(scoped.run.code).toBe(0);
    const whole = await counted(() => run([book, "-o", out, "--budget", "2"]));
    expect(whole.run.code).toBe(3);
    expect(whole.run.stderr).toMatch(
      /would spend at most 4 quota units .*--budget is 2\. Nothing was sent\./,
    );
    expect(whole.requests).toBe(0);
  });
});

describe("fdq refresh --only stale", () => {
  it("refreshes the cells whose value is not today's per the day cache, and sends nothing for the others", async () => {
    const { dir, book, out } = setUp();
    const cache = ["--cache-dir", path.join(dir, "cache")];
    // Nothing cached yet: every FDQ cell is stale.
    const first = await counted(() => run([book, "-o", out, "--only", "stale"], cache));
    expect(first.run.code).toBe(0);
    expect(first.requests).toBe(1 + 3);
    expect(first.run.stdout).toMatch(/^Refreshed 3 FDQ cells from an older refresh day, /);
    // The refreshed workbook holds today's answers: nothing is stale, nothing is sent or written.
    const again = path.join(dir, "again.xlsx");
    const second = await counted(() => run([out, "-o", again, "--only", "stale"], cache));
    expect(second.requests).toBe(0);
    expect(second.run.stdout).toMatch(/^Refreshed 0 FDQ cells from an older refresh day, /);
    expect(readFileSync(again)).toEqual(readFileSync(out));
    // The input still holds yesterday's values: stale, refreshed from today's cache without a request.
    const third = await counted(() =>
      run([book, "-o", path.join(dir, "third.xlsx"), "--only", "stale"], cache),
    );
    expect(third.requests).toBe(0);
    expect(third.run.stdout).toMatch(/^Refreshed 3 FDQ cells from an older refresh day, /);
    expect(readFileSync(path.join(dir, "third.xlsx"))).toEqual(readFileSync(out));
  });
});
