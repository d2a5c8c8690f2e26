// `fdq freeze --share`: a copy of a refreshed workbook for a colleague without the add-in. Checked part by part
// (FDQ cells as values, dependents intact, an "FDQ sources" sheet listed in workbook.xml, its relationship and
// content type, every other part byte for byte), then opened by LibreOffice (an application without the
// add-in) converting each sheet to CSV: the values are there, and so are the sources.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { DEFAULTS, RefreshDayClock } from "../../../src/api";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { parseFrozenParts, FROZEN_NAMESPACE } from "../../../src/workbook/freeze/frozen-formulas";
import { readZip } from "../../../src/workbook/xlsx/zip";
import { fidelityBook, SHEET_PARTS } from "../../support/xlsx-corpus/fidelity-book";
import { serviceNumber } from "../functions/sandbox-oracle";
import { libreOfficeProfile } from "../../support/oracle-xlsx";
import { findComponent, LIBREOFFICE } from "../../support/components";
import { runFdq, type Run } from "./run-fdq";

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);
const SOFFICE = findComponent(LIBREOFFICE);

let sandbox: RunningSandbox;
let dir: string;
let refreshed: Uint8Array;
let shared: Uint8Array;
let run: Run;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = mkdtempSync(path.join(tmpdir(), "fdq-share-"));
  writeFileSync(path.join(dir, "book.xlsx"), fidelityBook());
  const connection = [
    "--base-url",
    sandbox.baseUrl,
    "--api-key",
    sandbox.demoKey,
    "--cache-dir",
    path.join(dir, "cache"),
  ];
  await runFdq([
    "refresh",
    path.join(dir, "book.xlsx"),
    "-o",
    path.join(dir, "refreshed.xlsx"),
    ...connection,
  ]);
  refreshed = new Uint8Array(readFileSync(path.join(dir, "refreshed.xlsx")));
  const requests = sandbox.stats().requests;
  run = await runFdq([
    "freeze",
    "--share",
    path.join(dir, "refreshed.xlsx"),
    "-o",
    path.join(dir, "share.xlsx"),
    ...connection,
  ]);
  expect(sandbox.stats().requests).toBe(requests); // the refresh days come from the cache: nothing is sent
  shared = new Uint8Array(readFileSync(path.join(dir, "share.xlsx")));
}, 240_000);

afterAll(() => sandbox.close());

describe("fdq freeze --share", () => {
  it("says what it froze and the sheet it added", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Froze 6 FDQ cells to values \(formulas kept in the workbook for fdq thaw and Restore formulas\) and listed their sources on the sheet "FDQ sources"; changed 6 parts, added 4, kept \d+ other parts byte for byte\./,
    );
  });

  it("adds the sheet at the end of workbook.xml, with its relationship and content type; nothing else in those parts changes", () => {
    const before = unzipSync(refreshed);
    const after = unzipSync(shared);
    const workbook = text(after["xl/workbook.xml"]);
    const added = /<sheet name="FDQ sources" sheetId="3" r:id="(rId\d+)"\/>/.exec(workbook);
    expect(added).not.toBeNull();
    expect(workbook.replace(added?.[0] as string, "")).toBe(text(before["xl/workbook.xml"]));
    const rels = text(after["xl/_rels/workbook.xml.rels"]);
    expect(rels).toContain(
      `<Relationship Id="${added?.[1]}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet3.xml"/>`,
    );
    expect(text(after["[Content_Types].xml"])).toContain(
      '<Override PartName="/xl/worksheets/sheet3.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>',
    );
    // Every part but the lists of parts, the two sheets and the calculation chain: the same bytes.
    const after2 = new Map(readZip(shared).entries.map((e) => [e.name, e]));
    const touched = [
      "[Content_Types].xml",
      "xl/_rels/workbook.xml.rels",
      "xl/workbook.xml",
      "xl/calcChain.xml",
      ...Object.values(SHEET_PARTS),
    ];
    for (const e of readZip(refreshed).entries) {
      if (touched.includes(e.name)) continue;
      expect({
        name: e.name,
        same: Buffer.compare(Buffer.from(e.raw), Buffer.from(after2.get(e.name)?.raw ?? [])) === 0,
      }).toEqual({
        name: e.name,
        same: true,
      });
    }
  });

  it("writes the FDQ cells as values and leaves the dependents' formulas and cached values", () => {
    const model = text(unzipSync(shared)[SHEET_PARTS.Model]);
    const before = text(unzipSync(refreshed)[SHEET_PARTS.Model]);
    const c3 = /<c r="C3" s="2"><f>[^<]*<\/f><v>([^<]*)<\/v><\/c>/.exec(before)?.[1];
    expect(model).toContain(`<c r="C3" s="2"><v>${c3}</v></c>`);
    const b8 = /<c r="B8"[^>]*>[\s\S]*?<\/c>/.exec(before)?.[0] as string;
    expect(b8).toContain("<f>SUM(C2:C4)</f>");
    expect(model).toContain(b8);
  });

  it("lists each frozen cell with its formula, value, period, refresh day and source on the FDQ sources sheet", async () => {
    const after = unzipSync(shared);
    const sheet = text(after["xl/worksheets/sheet3.xml"]);
    const rows = [...sheet.matchAll(/<row r="(\d+)">([\s\S]*?)<\/row>/g)].map((m) =>
      [
        ...(m[2] as string).matchAll(
          /<c r="([A-Z]+)\d+"(?: t="inlineStr")?>(?:<is><t>([^<]*)<\/t><\/is>|<v>([^<]*)<\/v>)<\/c>/g,
        ),
      ].map((c) => [
        c[1],
        c[2] === undefined
          ? Number(c[3])
          : c[2].replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">"),
      ]),
    );
    expect(rows[0]?.map((c) => c[1])).toEqual([
      "Sheet",
      "Cell",
      "Formula",
      "Value",
      "Period",
      "Refresh day",
      "Source",
    ]);
    const item = Object.keys(after).find(
      (k) => /^customXml\/item\d+\.xml$/.test(k) && text(after[k]).includes(FROZEN_NAMESPACE),
    );
    const frozen = parseFrozenParts([text(after[item as string])]);
    expect(rows).toHaveLength(frozen.length + 1);
    const c3 = rows.find((r) => r[0]?.[1] === "Model" && r[1]?.[1] === "C3");
    const msft = await serviceNumber(sandbox, "metrics/roic/MSFT?datapoint=ROIC&year=2023");
    expect(Object.fromEntries(c3 ?? [])).toEqual({
      A: "Model",
      B: "C3",
      // The formula as the user typed it, not as Excel stores it (_xldudf_FDQ_DATAPOINT).
      C: '=FDQ.DATAPOINT(A3,"metrics/roic","ROIC",B3)',
      D: msft,
      E: "FY2023",
      F: new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now()),
      // The request that answered it in the refresh: the book's FDQ.DATASET("MSFT","roic",2023) asked the
      // whole dataset in the same batch, and that answer served the datapoint.
      G: "GET /metrics/roic/MSFT?year=2023",
    });
  });

  (SOFFICE ? it : it.skip)(
    "opens in LibreOffice without the add-in with the values and the sources",
    async () => {
      const out = path.join(dir, "csv");
      await new Promise<void>((resolve, reject) =>
        execFile(
          SOFFICE as string,
          [
            libreOfficeProfile(path.join(dir, "lo-profile")),
            "--headless",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
            "--outdir",
            out,
            path.join(dir, "share.xlsx"),
          ],
          { timeout: 170_000 },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
      const model = readFileSync(path.join(out, "share-Model.csv"), "utf8").split("\n");
      const msft = await serviceNumber(sandbox, "metrics/roic/MSFT?datapoint=ROIC&year=2023");
      // Row 3: MSFT's ROIC as a percentage (the cell's number format), no #NAME?.
      const [ticker, year, roic] = model[2]?.split(",") ?? [];
      expect([ticker, year]).toEqual(["MSFT", "2023"]);
      expect(roic).toMatch(/^[\d.]+%$/);
      expect(Number(roic?.replace("%", "")) / 100).toBeCloseTo(msft, 12);
      expect(readFileSync(path.join(out, "share-Model.csv"), "utf8")).not.toContain("#NAME?");
      const sources = readFileSync(path.join(out, "share-FDQ sources.csv"), "utf8");
      expect(sources.split("\n")[0]).toBe("Sheet,Cell,Formula,Value,Period,Refresh day,Source");
      expect(sources).toContain(`Model,C3,"=FDQ.DATAPOINT(A3,""metrics/roic"",""ROIC"",B3)",${msft},FY2023,`);
    },
    180_000,
  );
});
