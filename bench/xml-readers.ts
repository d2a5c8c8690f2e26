// `npx tsx bench/xml-readers.ts`: the XML readers a workbook could be read with, on the two kinds of part fdq reads.
//
// - A worksheet of 50,000 FDQ formulas with their cached values (the size of `npm run bench:refresh`'s R1), read for
//   each cell's formula and value: by the hand scanner of src/workbook/xlsx/sheet-scan.ts (which also gives every
//   cell's offsets, so the patcher can copy every other byte), by saxes as a stream of events (values, no offsets),
//   and by saxes and fast-xml-parser into a tree.
// - fdq's own custom XML parts: the cell sources of a 50,000-cell refresh, read by the scan of
//   src/workbook/refresh/cell-sources.ts and by saxes into a tree; a frozen-formulas part of 1,000 cells, read into a tree by
//   saxes (parseXml of src/workbook/xlsx/xml.ts, what fdq uses) and by fast-xml-parser.
//
// Each reader runs in a child process of its own (`--reader NAME`), so its peak RSS is its own: the figure is the
// peak resident size of that process over the part alone (made and held before the timer starts), and the time the
// median of 7 reads. It prints one line per reader and a markdown table for bench/README.md.
import { spawnSync } from "node:child_process";
import os from "node:os";
import { XMLParser } from "fast-xml-parser";
import { SaxesParser } from "saxes";
import {
  parseCellSources,
  serializeCellSources,
  type CellSourceRecord,
} from "../src/workbook/refresh/cell-sources";
import { serializeFrozen, type FrozenCell } from "../src/workbook/freeze/frozen-formulas";
import { cellParts, layoutOf, scanSheet } from "../src/workbook/xlsx/sheet-scan";
import { parseXml, type XmlNode } from "../src/workbook/xlsx/xml";

const SHEET_CELLS = 50_000;
const COLUMNS = 10;
const PART_CELLS = 1_000;
const RUNS = 7;

function column(n: number): string {
  let s = "";
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** A worksheet as Excel writes one: rows of cells holding an FDQ formula (as Excel stores it) and its value. */
function worksheet(): string {
  const rows: string[] = [];
  for (let r = 1; r <= SHEET_CELLS / COLUMNS; r++) {
    const cells: string[] = [];
    for (let c = 1; c <= COLUMNS; c++) {
      const ticker = `T${(r * COLUMNS + c) % 2_700}`;
      cells.push(
        `<c r="${column(c)}${r}" s="3"><f>_xldudf_FDQ_DATAPOINT(&quot;${ticker}&quot;,&quot;metrics/roic&quot;,` +
          `&quot;ROIC&quot;,${2014 + (c % 10)})</f><v>0.${(r * 7919 + c * 104729) % 1e9}</v></c>`,
      );
    }
    rows.push(`<row r="${r}" spans="1:${COLUMNS}">${cells.join("")}</row>`);
  }
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ` +
    `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:${column(COLUMNS)}${
      SHEET_CELLS / COLUMNS
    }"/><sheetData>${rows.join("")}</sheetData></worksheet>`
  );
}

function frozenPart(): string {
  const cells: FrozenCell[] = [];
  for (let i = 1; i <= PART_CELLS; i++)
    cells.push({
      sheet: "Model",
      cell: `B${i}`,
      formula: `=FDQ.DATAPOINT("T${i}","metrics/roic","ROIC",2023)`,
      value: i / 7,
      frozenAt: "2026-11-28T09:00:00.000Z",
      refreshDay: "2026-11-28",
    });
  return serializeFrozen(cells);
}

/** The cell-sources part of a 50,000-cell refresh: one record per FDQ cell, its texts in a table. */
function sourcesPart(): string {
  const records: CellSourceRecord[] = [];
  for (let i = 0; i < SHEET_CELLS; i++) {
    const row = Math.floor(i / COLUMNS) + 1;
    const year = 2014 + (i % 10);
    records.push({
      sheet: "Model",
      cell: `${column((i % COLUMNS) + 1)}${row}`,
      formula: `=FDQ.DATAPOINT("T${row % 2_700}","metrics/roic","ROIC",${year})`,
      day: "2026-11-28",
      period: `FY${year}`,
      sources: [`/metrics/roic/T${row % 2_700}?year=${year}`],
    });
  }
  return serializeCellSources(records);
}

type Reader = (xml: string) => number;

/** Every cell's formula and value, as read-model.ts reads them. */
const handScanner: Reader = (xml) => {
  const layout = layoutOf(xml);
  let n = 0;
  scanSheet(
    xml,
    layout,
    () => undefined,
    (cell) => {
      const parts = cellParts(xml, cell, layout.prefix);
      if (parts.formulaText !== "" && parts.value !== undefined) n++;
    },
  );
  return n;
};

/** The same from saxes' events: each cell's formula and value, without the tree (and without offsets). */
const saxesStream: Reader = (xml) => {
  const parser = new SaxesParser({ position: false });
  let n = 0;
  let inside = "";
  let formula = "";
  let value = "";
  parser.on("opentag", (tag) => {
    if (tag.name === "c") [formula, value] = ["", ""];
    inside = tag.name;
  });
  parser.on("text", (text) => {
    if (inside === "f") formula += text;
    else if (inside === "v") value += text;
  });
  parser.on("closetag", (tag) => {
    inside = "";
    if (tag.name === "c" && formula !== "" && value !== "") n++;
  });
  parser.write(xml).close();
  return n;
};

const count = (node: XmlNode): number =>
  node.children.reduce((n, c) => n + count(c), node.name === "c" ? 1 : 0);
const saxesTree: Reader = (xml) => count(parseXml(xml));

const fxp = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  htmlEntities: true,
});
const fxpTree: Reader = (xml) => {
  const doc = fxp.parse(xml, true) as Record<string, unknown>;
  return JSON.stringify(doc).length > 0 ? 1 : 0;
};

const READERS: Record<string, { part: "sheet" | "sources" | "frozen"; read: Reader; label: string }> = {
  "sheet:hand-scanner": { part: "sheet", read: handScanner, label: "hand scanner (sheet-scan.ts), offsets" },
  "sheet:saxes-stream": { part: "sheet", read: saxesStream, label: "saxes, events only, no offsets" },
  "sheet:saxes-tree": { part: "sheet", read: saxesTree, label: "saxes into a tree (parseXml)" },
  "sheet:fast-xml-parser": { part: "sheet", read: fxpTree, label: "fast-xml-parser into a tree" },
  "sources:scan": {
    part: "sources",
    read: (xml) => parseCellSources(xml).length,
    label: "its own scan (cell-sources.ts)",
  },
  "sources:saxes-tree": { part: "sources", read: saxesTree, label: "saxes into a tree (parseXml)" },
  "frozen:saxes-tree": { part: "frozen", read: saxesTree, label: "saxes into a tree (parseXml)" },
  "frozen:fast-xml-parser": { part: "frozen", read: fxpTree, label: "fast-xml-parser into a tree" },
};

interface Measured {
  reader: string;
  chars: number;
  medianMs: number;
  peakRssMb: number;
  baseRssMb: number;
}

function child(name: string): void {
  const reader = READERS[name]!;
  const xml =
    reader.part === "sheet" ? worksheet() : reader.part === "sources" ? sourcesPart() : frozenPart();
  const baseRssMb = process.memoryUsage().rss / 2 ** 20;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    reader.read(xml);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const measured: Measured = {
    reader: name,
    chars: xml.length,
    medianMs: times[Math.floor(RUNS / 2)]!,
    // maxRSS is in kilobytes.
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    baseRssMb,
  };
  process.stdout.write(JSON.stringify(measured) + "\n");
}

function main(): void {
  const only = process.argv.indexOf("--reader");
  if (only >= 0) return child(process.argv[only + 1]!);
  const rows: Measured[] = [];
  for (const name of Object.keys(READERS)) {
    const run = spawnSync(process.execPath, ["--import", "tsx", __filename, "--reader", name], {
      encoding: "utf8",
    });
    if (run.status !== 0) throw new Error(`${name}: ${run.stderr}`);
    const measured = JSON.parse(run.stdout) as Measured;
    rows.push(measured);
    process.stdout.write(run.stdout);
  }
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  console.log(
    `\n${os.cpus().length} cores ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 16)} UTC\n`,
  );
  console.log("| Part | Reader | Characters | Median ms (7 reads) | Peak RSS MB | RSS before the reads MB |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const [part] = r.reader.split(":");
    const what =
      part === "sheet"
        ? `worksheet, ${SHEET_CELLS.toLocaleString("en-US")} cells`
        : part === "sources"
          ? `cell sources, ${SHEET_CELLS.toLocaleString("en-US")} cells`
          : `frozen formulas, ${PART_CELLS.toLocaleString("en-US")} cells`;
    console.log(
      `| ${what} | ${READERS[r.reader]!.label} | ${r.chars.toLocaleString("en-US")} | ${r.medianMs.toFixed(1)} | ` +
        `${r.peakRssMb.toFixed(0)} | ${r.baseRssMb.toFixed(0)} |`,
    );
  }
}

main();
