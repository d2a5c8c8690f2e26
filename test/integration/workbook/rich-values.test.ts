// `fdq refresh` on a workbook whose cells hold rich values (an FDQ card, a number carrying its source, a linked
// data type: test/support/xlsx-corpus/rich-values-book.ts) against the sandbox: every rich-value part and
// xl/metadata.xml kept byte for byte, each cell holding one left as it was and named in the report, the plain
// FDQ cell and its dependent refreshed, and the result opened by LibreOffice (one conversion).
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { readZip } from "../../../src/workbook/xlsx/zip";
import { libreOfficeProfile, readOracleValues } from "../../support/oracle-xlsx";
import { OLD, RICH_PARTS, SHEET_PART, richValuesBook } from "../../support/xlsx-corpus/rich-values-book";
import { serviceNumber } from "../functions/sandbox-oracle";
import { runFdq, type Run } from "../cli/run-fdq";

const soffice = spawnSync("sh", ["-c", "command -v soffice"], { encoding: "utf8" }).stdout.trim();

let sandbox: RunningSandbox;
let dir: string;
let input: Uint8Array;
let output: Uint8Array;
let run: Run;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = mkdtempSync(path.join(tmpdir(), "fdq-rich-"));
  input = richValuesBook();
  writeFileSync(path.join(dir, "model.xlsx"), input);
  run = await runFdq([
    "refresh",
    path.join(dir, "model.xlsx"),
    "-o",
    path.join(dir, "refreshed.xlsx"),
    "--base-url",
    sandbox.baseUrl,
    "--api-key",
    sandbox.demoKey,
    "--no-cache",
  ]);
  output = new Uint8Array(readFileSync(path.join(dir, "refreshed.xlsx")));
});

afterAll(() => sandbox.close());

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);
const cellOf = (xml: string, ref: string): string | undefined =>
  new RegExp(`<c r="${ref}"[^>]*?(?:/>|>[\\s\\S]*?</c>)`).exec(xml)?.[0];

describe("fdq refresh on a workbook holding rich values", () => {
  it("keeps every xl/richData part and xl/metadata.xml byte for byte, compressed bytes included", () => {
    const before = new Map(readZip(input).entries.map((e) => [e.name, Buffer.from(e.raw)]));
    const after = new Map(readZip(output).entries.map((e) => [e.name, Buffer.from(e.raw)]));
    for (const part of RICH_PARTS) {
      expect({ part, raw: after.get(part) }).toEqual({ part, raw: before.get(part) });
    }
  });

  it("leaves each cell holding a rich value as it was: its vm, its formula and its cached fallback", () => {
    const was = text(unzipSync(input)[SHEET_PART]);
    const now = text(unzipSync(output)[SHEET_PART]);
    for (const ref of ["A2", "A3", "C1", "C2"]) expect(cellOf(now, ref)).toBe(cellOf(was, ref));
    // Each vm still points at a block of the unchanged metadata: three valueMetadata blocks, vm 1 to 3.
    expect([...now.matchAll(/\svm="(\d+)"/g)].map((m) => m[1])).toEqual(["3", "1", "3", "2"]);
  });

  it("names each cell it left, with why, and exits 4 (cells left with their old values)", () => {
    expect(run.code).toBe(4);
    const left = "left with its old value,";
    expect(run.stderr.split("\n").filter((l) => l.includes(left))).toEqual([
      `fdq refresh: Model!A2: ${left} holds a data type (an FDQ card or a number with its source): refreshed in Excel only`,
      `fdq refresh: Model!A3: ${left} holds a data type (an FDQ card or a number with its source): refreshed in Excel only`,
      `fdq refresh: Model!B3: ${left} reads Model!A3, which holds a data type: refreshed in Excel only`,
      `fdq refresh: Model!C3: ${left} reads Model!C1, which holds a data type: refreshed in Excel only`,
    ]);
    expect(run.stdout).toMatch(
      /^Refreshed 1 FDQ cell, recomputed 1 dependent, left 2 FDQ cells and 2 dependents with old values;/,
    );
  });

  it("refreshes the plain FDQ cell and its dependent with the service's number", async () => {
    const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2022");
    expect(roic).not.toBe(OLD.roic2022);
    const now = text(unzipSync(output)[SHEET_PART]);
    expect(cellOf(now, "A4")).toBe(
      `<c r="A4"><f>_xludf.FDQ.DATAPOINT(B1,"metrics/roic","ROIC",2022)</f><v>${roic}</v></c>`,
    );
    expect(Number(/<v>([^<]*)<\/v>/.exec(cellOf(now, "B4") ?? "")?.[1])).toBeCloseTo(roic * 100, 12);
  });

  (soffice ? it : it.skip)(
    `opens in LibreOffice with the refreshed values${soffice ? "" : " (skipped: LibreOffice is not installed)"}`,
    async () => {
      const out = path.join(dir, "lo");
      await new Promise<void>((resolve, reject) =>
        execFile(
          soffice,
          [
            libreOfficeProfile(path.join(dir, "lo-profile")),
            "--headless",
            "--convert-to",
            "xlsx",
            "--outdir",
            out,
            path.join(dir, "refreshed.xlsx"),
          ],
          { timeout: 170_000 },
          (err) => (err ? reject(err) : resolve()),
        ),
      );
      const opened = readOracleValues(readFileSync(path.join(out, "refreshed.xlsx")));
      const roic = await serviceNumber(sandbox, "metrics/roic/AAPL?datapoint=ROIC&year=2022");
      expect(opened.get("Model!B1")).toBe("AAPL");
      expect(opened.get("Model!A4")).toBe(roic);
      expect(opened.get("Model!A3")).toBe(OLD.roic2023);
    },
    180_000,
  );
});
