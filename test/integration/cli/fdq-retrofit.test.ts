// `fdq retrofit` as a process against a sandbox on 127.0.0.1, on the retrofit corpus (models written as openpyxl
// writes them, with numbers typed from the sandbox's own values: test/support/xlsx-corpus/retrofit-models.ts).
// The sandbox runs in this process, so its counts say what each run sent and spent: the price printed first,
// --estimate sending nothing, a budget too small refused before any request, the links' precision and recall
// and their units, and --apply then fdq thaw giving back every part of the model byte for byte.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { FdqClient } from "../../../src/api";
import { evaluateAll } from "../../../src/functions/evaluate";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { KEPT_CONSTANTS_NAMESPACE } from "../../../src/workbook/retrofit/kept-constants";
import { findComponent, LIBREOFFICE } from "../../support/components";
import { libreOfficeProfile } from "../../support/oracle-xlsx";
import { scoreRetrofit, type ReportRow } from "../../support/retrofit-score";
import { noLayoutBook, retrofitCorpus, type RetrofitCorpus } from "../../support/xlsx-corpus/retrofit-models";
import { runFdq, type Run } from "./run-fdq";

jest.setTimeout(180_000);

const SOFFICE = findComponent(LIBREOFFICE);

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

describe("fdq retrofit on the retrofit corpus", () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let corpus: RetrofitCorpus;
  let connection: string[];
  const model = (): string => path.join(dir, "models.xlsx");
  /** Runs fdq and says what the sandbox saw meanwhile. */
  const counted = async (args: string[]): Promise<Run & { requests: number; units: number }> => {
    const requests = sandbox.stats().requests;
    const units = sandbox.usage();
    const run = await runFdq(args);
    return { ...run, requests: sandbox.stats().requests - requests, units: sandbox.usage() - units };
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
    dir = mkdtempSync(path.join(tmpdir(), "fdq-retrofit-"));
    const client = new FdqClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey });
    corpus = await retrofitCorpus(async (calls) =>
      (await evaluateAll(client, calls)).map((o) => (o.ok && typeof o.value === "number" ? o.value : null)),
    );
    await client.close();
    writeFileSync(model(), corpus.bytes);
    connection = ["--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--no-cache", "--ticker", "K"];
  });

  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints the price before any request, and --estimate sends nothing", async () => {
    const run = await counted(["retrofit", model(), "--estimate", ...connection]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^${corpus.truth.length} numbers under \\d+ labels on 5 sheets; \\d+ labels may name FDQ datapoints\\. ` +
          `This costs at most \\d+ quota units \\(\\d+ units for a first look at each label's candidates\\)\\.\\n` +
          "Estimate only: nothing was sent\\.\\n$",
      ),
    );
    expect(run.stderr).toBe('fdq retrofit: sheet "Locked": the sheet is protected; skipped\n');
    expect({ requests: run.requests, units: run.units }).toEqual({ requests: 0, units: 0 });
  });

  it("refuses a budget too small for the model, saying how many units it needs, before any request", async () => {
    const estimate = await runFdq(["retrofit", model(), "--estimate", ...connection]);
    const most = /costs at most (\d+) quota units/.exec(estimate.stdout)?.[1];
    const run = await counted(["retrofit", model(), "--budget", "5", ...connection]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `fdq retrofit: this model needs up to ${most} quota units; --budget is 5. Nothing was sent.\n`,
    );
    expect({ requests: run.requests, units: run.units }).toEqual({ requests: 0, units: 0 });
  });

  describe("a run with --report and --apply, then fdq thaw", () => {
    let run: Run & { requests: number; units: number };
    let rows: ReportRow[];
    let linked: Uint8Array;

    beforeAll(async () => {
      run = await counted([
        "retrofit",
        model(),
        "--report",
        path.join(dir, "report.json"),
        "--apply",
        "-o",
        path.join(dir, "linked.xlsx"),
        "--stats",
        ...connection,
      ]);
      rows = JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")) as ReportRow[];
      linked = new Uint8Array(readFileSync(path.join(dir, "linked.xlsx")));
    });

    it("links with precision of at least 0.98 and recall of at least 0.9", () => {
      expect(run.code).toBe(0);
      const score = scoreRetrofit(corpus.truth, rows);
      expect(score.wrongLinks).toEqual([]);
      expect(score.precision).toBeGreaterThanOrEqual(0.98);
      expect(score.recall).toBeGreaterThanOrEqual(0.9);
    });

    it("spends at most 2 units per linked cell, the units and requests its summary and --stats say", () => {
      const score = scoreRetrofit(corpus.truth, rows);
      expect(run.units).toBeLessThanOrEqual(2 * score.linked);
      expect(run.stdout).toContain(`Spent ${run.units} quota units (${run.requests} requests).`);
      expect(run.stderr).toContain(`fdq stats: requests sent ${run.requests}, units spent ${run.units},`);
      const most = Number(/costs at most (\d+) quota units/.exec(run.stdout)?.[1]);
      expect(run.units).toBeLessThanOrEqual(most);
    });

    it("writes one report row per number, and the summary counts them", () => {
      expect(rows).toHaveLength(corpus.truth.length);
      const n = (s: string) => rows.filter((r) => r.status === s).length;
      expect(run.stdout).toContain(
        `Linked ${n("linked")} numbers; ${n("ambiguous")} ambiguous; ${n("not found")} not found; ` +
          `${n("no datapoint")} numbers under labels that name no FDQ datapoint left alone.`,
      );
      // The numbers typed wrong are reported, not linked.
      const wrong = corpus.truth.filter((t) => t.kind === "wrong").map((t) => `${t.sheet}!${t.cell}`);
      expect(rows.filter((r) => wrong.includes(`${r.sheet}!${r.cell}`)).map((r) => r.status)).toEqual(
        wrong.map(() => "not found"),
      );
    });

    it("writes each link as Excel stores the add-in's function, the scale after it, other parts kept", () => {
      const before = unzipSync(corpus.bytes);
      const after = unzipSync(linked);
      const sheet1 = text(after["xl/worksheets/sheet1.xml"]);
      expect(sheet1).toMatch(
        /<c r="B5" s="1"><f>_xldudf_FDQ_DATAPOINT\("AAPL","screens\/traditional","REVENUE",2019\)\/1000000<\/f><v>[\d.]+<\/v><\/c>/,
      );
      expect(sheet1).toMatch(
        /<c r="B10" s="1"><f>-_xldudf_FDQ_DATAPOINT\("AAPL","screens\/traditional","EXPENSES_SGA",2019\)\/1000000<\/f>/,
      );
      const changed = Object.keys(before).filter((p) => text(before[p]) !== text(after[p]));
      expect(changed.sort()).toEqual([
        "[Content_Types].xml",
        "xl/_rels/workbook.xml.rels",
        "xl/worksheets/sheet1.xml",
        "xl/worksheets/sheet2.xml",
        "xl/worksheets/sheet3.xml",
        "xl/worksheets/sheet4.xml",
        "xl/worksheets/sheet5.xml",
      ]);
      const kept = Object.keys(after).filter((p) => text(after[p]).includes(KEPT_CONSTANTS_NAMESPACE));
      expect(kept.length).toBeGreaterThan(0);
    });

    it("fdq thaw gives back the original constants and every part byte for byte", async () => {
      const thaw = await runFdq(["thaw", path.join(dir, "linked.xlsx"), "-o", path.join(dir, "back.xlsx")]);
      expect(thaw.stderr).toBe("");
      expect(thaw.code).toBe(0);
      const linkedCount = rows.filter((r) => r.status === "linked").length;
      expect(thaw.stdout).toContain(
        `Restored 0 frozen formulas and ${linkedCount} constants fdq retrofit replaced;`,
      );
      const before = unzipSync(corpus.bytes);
      const back = unzipSync(new Uint8Array(readFileSync(path.join(dir, "back.xlsx"))));
      expect(Object.keys(back).sort()).toEqual(Object.keys(before).sort());
      for (const part of Object.keys(before))
        expect({ part, text: text(back[part]) }).toEqual({ part, text: text(before[part]) });
    });
  });

  (SOFFICE ? it : it.skip)("links the same numbers in the corpus as LibreOffice re-saves it", async () => {
    const out = path.join(dir, "lo");
    await new Promise<void>((resolve, reject) =>
      execFile(
        SOFFICE as string,
        [
          libreOfficeProfile(path.join(dir, "lo-profile")),
          "--headless",
          "--convert-to",
          "xlsx",
          "--outdir",
          out,
          model(),
        ],
        { timeout: 170_000 },
        (err) => (err ? reject(err) : resolve()),
      ),
    );
    const run = await counted([
      "retrofit",
      path.join(out, "models.xlsx"),
      "--report",
      path.join(dir, "lo.json"),
      ...connection,
    ]);
    expect(run.code).toBe(0);
    const score = scoreRetrofit(
      corpus.truth,
      JSON.parse(readFileSync(path.join(dir, "lo.json"), "utf8")) as ReportRow[],
    );
    expect(score.wrongLinks).toEqual([]);
    expect(score.precision).toBeGreaterThanOrEqual(0.98);
    expect(score.recall).toBeGreaterThanOrEqual(0.9);
    expect(run.units).toBeLessThanOrEqual(2 * score.linked);
  });

  it("says which layouts it reads when a file has none of them", async () => {
    writeFileSync(path.join(dir, "notes.xlsx"), noLayoutBook());
    const run = await counted(["retrofit", path.join(dir, "notes.xlsx"), ...connection]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^fdq retrofit: found no numbers to link in .*notes\.xlsx\. fdq retrofit reads two layouts: a company per sheet/,
    );
    expect(run.requests).toBe(0);
  });
});
