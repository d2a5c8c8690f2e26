// `fdq repair` on the package (src/workbook/repair/repair.ts), on the hand-built corrupted book: every form of an FDQ
// call Excel no longer recognises is stored again as _xldudf_FDQ_NAME, only the call's head changes, the
// external link only those calls used goes, and every other part is copied byte for byte. Contents are read
// back with fflate's own unzip, independently of the patcher.
import { unzipSync } from "fflate";
import { repairPackage } from "../../../src/workbook/repair/repair";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { readZip } from "../../../src/workbook/xlsx/zip";
import {
  BLOOMBERG_PATH,
  corruptedBook,
  corruptedCells,
  corruptedParts,
  type CorruptedBookOptions,
} from "../../support/xlsx-corpus/corrupted-book";
import { fidelityBook, SHEET_PARTS } from "../../support/xlsx-corpus/fidelity-book";
import { zipParts } from "../../support/xlsx-corpus/zip-parts";

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

function repaired(options: CorruptedBookOptions = {}) {
  const input = corruptedBook(options);
  const outcome = repairPackage(openPackage(input));
  const output = outcome.editor.write();
  return { input, outcome, output, before: unzipSync(input), after: unzipSync(output) };
}

/** Parts whose raw zip entries (compressed bytes and headers) are identical in both files. */
function rawSame(a: Uint8Array, b: Uint8Array): string[] {
  const after = new Map(readZip(b).entries.map((e) => [e.name, e]));
  return readZip(a)
    .entries.filter((e) => {
      const other = after.get(e.name);
      return other !== undefined && Buffer.compare(Buffer.from(e.raw), Buffer.from(other.raw)) === 0;
    })
    .map((e) => e.name);
}

/** Each cell's XML by address. */
function cellsOf(xml: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g))
    cells.set(m[1] as string, m[0]);
  return cells;
}

const SHEET = "xl/worksheets/sheet1.xml";
const WORKBOOK = "xl/workbook.xml";

describe("repairPackage: every corrupted form", () => {
  const { outcome, input, output, before, after } = repaired();

  it("repairs each cell, a shared formula's followers with their master, and says before and after", () => {
    const expected = corruptedCells().map((c) => ({ sheet: "Model", ...c }));
    expect(outcome.cells).toEqual(expected);
    expect(outcome.left).toEqual([]);
  });

  it("changes only the heads inside the formulas: every other cell and every other character stays", () => {
    const old = cellsOf(text(before[SHEET]));
    const now = cellsOf(text(after[SHEET]));
    expect([...now.keys()]).toEqual([...old.keys()]);
    const heads = (xml: string): string =>
      xml
        .replace(/\[2\]!_xldudf_FDQ_/g, "_xldudf_FDQ_")
        .replace("_xludf.FDQ.RATING", "_xldudf_FDQ_RATING")
        .replace("fdq.security", "_xldudf_FDQ_SECURITY")
        .replace(`'${BLOOMBERG_PATH}'!`, "")
        .replace("BloombergUI.xla!", "");
    for (const [address, xml] of old)
      expect({ address, xml: now.get(address) }).toEqual({ address, xml: heads(xml) });
    // The text outside <sheetData> too, and the followers keep no text of their own.
    expect(text(after[SHEET])).toBe(heads(text(before[SHEET])));
    expect(now.get("B3")).toBe('<c r="B3" t="e"><f t="shared" si="0"/><v>#NAME?</v></c>');
    // The IFERROR's quotes stay as the file wrote them (&quot;).
    expect(now.get("C4")).toContain(
      "<f>IFERROR(_xldudf_FDQ_DATAPOINT($A4,&quot;metrics/roic&quot;,&quot;ROIC&quot;,2022),&quot;n/a&quot;)</f>",
    );
  });

  it("repairs a defined name holding a corrupted call, and leaves the others", () => {
    expect(outcome.names).toEqual([
      {
        name: "RoicAapl",
        before: '=[2]!_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)',
        after: '=_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)',
      },
    ]);
    const names = readWorkbook(openPackage(output)).model.names;
    expect(names.map((n) => [n.name, n.text])).toEqual([
      ["Hurdle", "0.08"],
      ["RoicAapl", '_xldudf_FDQ_DATAPOINT("AAPL","metrics/roic","ROIC",2023)'],
      ["Tickers", "Model!$A$2:$A$4"],
    ]);
  });

  it("drops the add-in's external link nothing references any more, with every entry that lists it", () => {
    expect(outcome.droppedLinks).toEqual([
      { part: "xl/externalLinks/externalLink2.xml", index: 2, target: `file:///${BLOOMBERG_PATH}` },
    ]);
    expect(outcome.keptLinks).toEqual([]);
    expect(Object.keys(after).sort()).toEqual(
      Object.keys(before)
        .filter(
          (p) =>
            !p.startsWith("xl/externalLinks/externalLink2.xml") &&
            p !== "xl/externalLinks/_rels/externalLink2.xml.rels",
        )
        .sort(),
    );
    const types = text(before["[Content_Types].xml"]).replace(
      `<Override PartName="/xl/externalLinks/externalLink2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml"/>`,
      "",
    );
    expect(text(after["[Content_Types].xml"])).toBe(types);
    const rels = text(before["xl/_rels/workbook.xml.rels"]).replace(
      '<Relationship Id="rId11" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="externalLinks/externalLink2.xml"/>',
      "",
    );
    expect(text(after["xl/_rels/workbook.xml.rels"])).toBe(rels);
    const workbook = text(before[WORKBOOK])
      .replace('<externalReference r:id="rId11"/>', "")
      .replace("[2]!_xldudf_FDQ_DATAPOINT", "_xldudf_FDQ_DATAPOINT");
    expect(text(after[WORKBOOK])).toBe(workbook);
    expect(readWorkbook(openPackage(output)).model.externalBooks).toBe(1);
  });

  it("keeps the external link a formula still reads ([1]Prices!B2)", () => {
    expect(text(after["xl/externalLinks/externalLink1.xml"])).toContain('<sheetName val="Prices"/>');
    expect(cellsOf(text(after[SHEET])).get("D5")).toBe('<c r="D5"><f>[1]Prices!B2*2</f><v>84</v></c>');
  });

  it("copies every other part byte for byte, compressed data and headers included", () => {
    const changed = [SHEET, WORKBOOK, "[Content_Types].xml", "xl/_rels/workbook.xml.rels"];
    const removed = ["xl/externalLinks/externalLink2.xml", "xl/externalLinks/_rels/externalLink2.xml.rels"];
    expect(outcome.editor.changedParts().sort()).toEqual([...changed].sort());
    expect(outcome.editor.removedParts().sort()).toEqual([...removed].sort());
    const others = readZip(input)
      .entries.map((e) => e.name)
      .filter((p) => !changed.includes(p) && !removed.includes(p));
    expect(others.length).toBeGreaterThan(5);
    expect(rawSame(input, output)).toEqual(others);
  });

  it("finds nothing to repair in the repaired file", () => {
    const again = repairPackage(openPackage(output));
    expect([again.cells, again.names, again.editor.changedParts(), again.editor.removedParts()]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });
});

describe("repairPackage: external links", () => {
  it("removes <externalReferences> with the last link it held", () => {
    const { outcome, after } = repaired({ links: ["bloomberg"] });
    expect(outcome.droppedLinks.map((l) => l.index)).toEqual([1]);
    expect(text(after[WORKBOOK])).not.toContain("externalReference");
    expect(Object.keys(after).filter((p) => p.includes("externalLink"))).toEqual([]);
  });

  it("keeps an unreferenced link that other links follow, and says why (removing it would renumber them)", () => {
    const { outcome, before, after } = repaired({ links: ["bloomberg", "prices"] });
    expect(outcome.cells).toHaveLength(8);
    expect(outcome.droppedLinks).toEqual([]);
    expect(outcome.keptLinks).toEqual([
      {
        part: "xl/externalLinks/externalLink1.xml",
        index: 1,
        target: `file:///${BLOOMBERG_PATH}`,
        reason:
          "nothing references it any more, but removing it would renumber the external workbooks after it in " +
          "every formula; remove it in Excel with Data > Edit Links",
      },
    ]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(text(after["[Content_Types].xml"])).toBe(text(before["[Content_Types].xml"]));
  });

  it("keeps a link still referenced by a call it cannot repair (not an FDQ function), and lists that call", () => {
    const parts = corruptedParts();
    parts[SHEET] = (parts[SHEET] as string).replace(
      '<row r="6" spans="1:5">',
      '<row r="6" spans="1:5"><c r="A6" t="e"><f>[2]!_xldudf_FDQ_NOSUCH(1)</f><v>#NAME?</v></c>',
    );
    const outcome = repairPackage(openPackage(zipParts(parts)));
    expect(outcome.left).toEqual(["Model!A6: [2]!_xldudf_FDQ_NOSUCH is not an FDQ function; left as it is"]);
    expect(outcome.droppedLinks).toEqual([]);
    expect(outcome.keptLinks).toEqual([]);
    expect(outcome.editor.removedParts()).toEqual([]);
  });
});

describe("repairPackage on the fidelity corpus (charts, comments, a table, a data table, a real external link, macros)", () => {
  it.each([false, true])(
    "repairs its _xludf.FDQ. and lower-case cells, keeps its [1] link, copies every other part (macros: %s)",
    (macros) => {
      const input = fidelityBook({ macros });
      const outcome = repairPackage(openPackage(input));
      const output = outcome.editor.write();
      expect(outcome.cells).toEqual([
        {
          sheet: "Model",
          cell: "C2",
          before: '=_xludf.FDQ.DATAPOINT(A2,"metrics/roic","ROIC",B2)',
          after: '=_xldudf_FDQ_DATAPOINT(A2,"metrics/roic","ROIC",B2)',
        },
        {
          sheet: "Model",
          cell: "C4",
          before: '=fdq.datapoint(A4,"metrics/roic","ROIC",B4)',
          after: '=_xldudf_FDQ_DATAPOINT(A4,"metrics/roic","ROIC",B4)',
        },
      ]);
      expect([outcome.names, outcome.droppedLinks, outcome.keptLinks, outcome.left]).toEqual([
        [],
        [],
        [],
        [],
      ]);
      // The worksheet changes; workbook.xml is written again with the same text, which the editor drops.
      expect(outcome.editor.changedParts()).toEqual([SHEET_PARTS.Model]);
      const others = readZip(input)
        .entries.map((e) => e.name)
        .filter((p) => p !== SHEET_PARTS.Model);
      expect(rawSame(input, output)).toEqual(others);
    },
  );
});
