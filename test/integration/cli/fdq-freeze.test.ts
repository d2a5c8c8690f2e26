// `fdq freeze` and `fdq thaw` on the fidelity corpus (a hand-written workbook holding everything a
// re-serialising writer loses): freezing keeps every formula inside the workbook, thawing puts each back exactly,
// and every other part is copied byte for byte. Contents are read back with fflate's own unzip, independently
// of the patcher.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { engineFormula } from "../../../src/workbook/formula-text";
import {
  parseFrozenParts,
  parseKeptChain,
  serializeFrozen,
  FROZEN_NAMESPACE,
} from "../../../src/workbook/freeze/frozen-formulas";
import { frozenParts } from "../../../src/workbook/freeze/frozen-parts";
import { freezePackage, thawPackage } from "../../../src/workbook/freeze/freeze";
import { addressOfCell } from "../../../src/workbook/engine/references";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { PackageEditor } from "../../../src/workbook/xlsx/structure";
import { readZip } from "../../../src/workbook/xlsx/zip";
import { fidelityBook, fidelityParts, SHEET_PARTS } from "../../support/xlsx-corpus/fidelity-book";
import { zipParts } from "../../support/xlsx-corpus/zip-parts";
import { runFdq, type Run } from "./run-fdq";

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

/** Each cell's XML by address. */
function cellsOf(xml: string): Map<string, string> {
  const cells = new Map<string, string>();
  for (const m of xml.matchAll(/<c r="([A-Z]+\d+)"[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g))
    cells.set(m[1] as string, m[0]);
  return cells;
}

/** The FDQ cells of the corpus by sheet part, from its own model. */
function fdqCells(book: Uint8Array): Map<string, Set<string>> {
  const pkg = openPackage(book);
  const { model } = readWorkbook(pkg);
  const out = new Map<string, Set<string>>();
  for (const c of model.formulas) {
    if (!engineFormula(c.formula).callsFdq) continue;
    const part = pkg.sheets.find((s) => s.name === c.sheet)?.part as string;
    out.set(part, new Set([...(out.get(part) ?? []), addressOfCell(c.row, c.col)]));
  }
  return out;
}

const ourItems = (files: Record<string, Uint8Array>): string[] =>
  Object.keys(files).filter(
    (k) => /^customXml\/item\d+\.xml$/.test(k) && text(files[k]).includes(FROZEN_NAMESPACE),
  );

/** Parts whose raw zip entries (compressed bytes and headers) are identical in both files. */
function rawSame(a: Uint8Array, b: Uint8Array): Set<string> {
  const after = new Map(readZip(b).entries.map((e) => [e.name, e]));
  const same = new Set<string>();
  for (const e of readZip(a).entries) {
    const other = after.get(e.name);
    if (other && Buffer.compare(Buffer.from(e.raw), Buffer.from(other.raw)) === 0) same.add(e.name);
  }
  return same;
}

/** The tests run fdq as a process, twice for some: minutes on a loaded machine. */
jest.setTimeout(180_000);

const LISTS = ["[Content_Types].xml", "xl/_rels/workbook.xml.rels", "xl/calcChain.xml"];

describe.each([false, true])("fdq freeze and fdq thaw on the fidelity corpus (macros: %s)", (macros) => {
  const ext = macros ? "xlsm" : "xlsx";
  let dir: string;
  let input: Uint8Array;
  let frozen: Uint8Array;
  let thawed: Uint8Array;
  let freezeRun: Run;
  let thawRun: Run;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "fdq-freeze-"));
    input = fidelityBook({ macros });
    writeFileSync(path.join(dir, `book.${ext}`), input);
    freezeRun = await runFdq([
      "freeze",
      path.join(dir, `book.${ext}`),
      "-o",
      path.join(dir, `frozen.${ext}`),
    ]);
    frozen = new Uint8Array(readFileSync(path.join(dir, `frozen.${ext}`)));
    thawRun = await runFdq(["thaw", path.join(dir, `frozen.${ext}`), "-o", path.join(dir, `thawed.${ext}`)]);
    thawed = new Uint8Array(readFileSync(path.join(dir, `thawed.${ext}`)));
  });

  it("freezes every FDQ cell to its cached value and says what it kept", () => {
    const count = [...fdqCells(input).values()].reduce((n, s) => n + s.size, 0);
    expect(freezeRun.stderr).toBe("");
    expect(freezeRun.code).toBe(0);
    const parts = readZip(input).entries.length;
    expect(freezeRun.stdout).toBe(
      `Froze ${count} FDQ cells to values (formulas kept in the workbook for fdq thaw and Restore formulas); ` +
        `changed 5 parts, added 3, kept ${parts - 5} other parts byte for byte. Wrote ${path.join(dir, `frozen.${ext}`)}.\n`,
    );
    const before = unzipSync(input);
    const after = unzipSync(frozen);
    for (const [part, fdq] of fdqCells(input)) {
      const old = cellsOf(text(before[part]));
      const now = cellsOf(text(after[part]));
      for (const [address, xml] of old) {
        const cell = now.get(address) as string;
        if (!fdq.has(address)) {
          // Dependents and every other cell: unchanged, formula and cached value.
          expect({ address, cell }).toEqual({ address, cell: xml });
          continue;
        }
        expect(cell).not.toMatch(/<f[\s>/]/);
        expect(cell).not.toContain(" cm=");
        const value = /<v>([^<]*)<\/v>/.exec(xml)?.[1];
        if (/ t="str"/.test(xml)) expect(cell).toContain(`t="inlineStr"><is><t>${value}</t></is>`);
        else expect(cell).toContain(`<v>${value}</v>`);
      }
    }
  });

  it("keeps each frozen formula in the frozen-formulas part, exactly as the file stored it", () => {
    const after = unzipSync(frozen);
    const items = ourItems(after);
    // One part: the cells, and the calculation chain as it was.
    expect(items).toHaveLength(1);
    const cells = parseFrozenParts(items.map((i) => text(after[i])));
    expect(parseKeptChain(items.map((i) => text(after[i])))?.original).toBe(
      text(unzipSync(input)["xl/calcChain.xml"]),
    );
    const before = unzipSync(input);
    const expected = [...fdqCells(input)].flatMap(([part, set]) => {
      const sheet = Object.entries(SHEET_PARTS).find(([, p]) => p === part)?.[0] as string;
      const old = cellsOf(text(before[part]));
      return [...set].map((cell) => ({ sheet, cell, stored: old.get(cell) }));
    });
    expect(
      cells
        .map((c) => ({ sheet: c.sheet, cell: c.cell, stored: c.stored }))
        .sort((a, b) => a.cell.localeCompare(b.cell)),
    ).toEqual(expected.sort((a, b) => a.cell.localeCompare(b.cell)));
    const c3 = cells.find((c) => c.sheet === "Model" && c.cell === "C3");
    expect(c3?.formula).toBe('=_xldudf_FDQ_DATAPOINT(A3,"metrics/roic","ROIC",B3)');
    expect(cells.find((c) => c.cell === "F1")?.spill).toBe("F1:G3");
  });

  it("copies every other part byte for byte; the calculation chain loses the frozen cells", () => {
    const same = rawSame(input, frozen);
    const changed = readZip(input)
      .entries.map((e) => e.name)
      .filter((n) => !same.has(n));
    expect(changed.sort()).toEqual([...LISTS, ...Object.values(SHEET_PARTS)].sort());
    const chain = text(unzipSync(frozen)["xl/calcChain.xml"]);
    expect(chain).not.toMatch(/<c r="(B3|C2|C3|C4|D1|F1)"/);
    expect(chain).toContain('<c r="B4" i="1" l="1"/>');
  });

  it("thaw restores every formula exactly and removes the parts: every part byte for byte as it was, calculation chain, content types and relationships included", () => {
    expect(thawRun.stderr).toBe("");
    expect(thawRun.code).toBe(0);
    expect(thawRun.stdout).toMatch(
      /^Restored 6 frozen formulas; changed 5 parts, removed 3, kept \d+ other parts byte for byte\./,
    );
    const before = unzipSync(input);
    const after = unzipSync(thawed);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const name of Object.keys(before)) {
      expect({ name, same: Buffer.compare(Buffer.from(after[name]!), Buffer.from(before[name]!)) }).toEqual({
        name,
        same: 0,
      });
    }
    if (macros)
      expect(Buffer.from(after["xl/vbaProject.bin"] as Uint8Array)).toEqual(
        Buffer.from(before["xl/vbaProject.bin"] as Uint8Array),
      );
    // Parts freeze never touched are still the input's bytes, compressed data and headers included.
    const untouched = rawSame(input, thawed);
    for (const e of readZip(input).entries) {
      if (![...LISTS, ...Object.values(SHEET_PARTS)].includes(e.name))
        expect(untouched.has(e.name)).toBe(true);
    }
  });
});

describe("fdq freeze --sheet", () => {
  it("freezes that sheet's FDQ cells only; thaw --sheet puts them back", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-freeze-"));
    const input = fidelityBook();
    writeFileSync(path.join(dir, "book.xlsx"), input);
    const run = await runFdq([
      "freeze",
      path.join(dir, "book.xlsx"),
      "-o",
      path.join(dir, "f.xlsx"),
      "--sheet",
      "Model",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Froze 4 FDQ cells to values/);
    const frozen = new Uint8Array(readFileSync(path.join(dir, "f.xlsx")));
    expect(rawSame(input, frozen).has(SHEET_PARTS.Inputs)).toBe(true);
    const thaw = await runFdq([
      "thaw",
      path.join(dir, "f.xlsx"),
      "-o",
      path.join(dir, "t.xlsx"),
      "--sheet",
      "model",
    ]);
    expect(thaw.stdout).toMatch(/^Restored 4 frozen formulas;/);
    const after = unzipSync(new Uint8Array(readFileSync(path.join(dir, "t.xlsx"))));
    expect(text(after[SHEET_PARTS.Model])).toBe(text(unzipSync(input)[SHEET_PARTS.Model]));
    expect(ourItems(after)).toEqual([]);
  });

  it("refuses a sheet the workbook does not have", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-freeze-"));
    writeFileSync(path.join(dir, "book.xlsx"), fidelityBook());
    const run = await runFdq([
      "freeze",
      path.join(dir, "book.xlsx"),
      "-o",
      path.join(dir, "f.xlsx"),
      "--sheet",
      "Nope",
    ]);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: 'fdq freeze: the workbook has no sheet "Nope"; its sheets are "Inputs", "Model"\n',
    });
  });

  it("refuses to write over its input without --in-place", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-freeze-"));
    writeFileSync(path.join(dir, "book.xlsx"), fidelityBook());
    const run = await runFdq(["freeze", path.join(dir, "book.xlsx")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^fdq: say where to write the result: -o OUT\.xlsx for a new file, or --in-place/,
    );
  });
});

describe("fdq thaw of formulas frozen by the task pane", () => {
  it("puts a formula frozen without its stored cell back around the cell's value", () => {
    // What the pane writes: the formula and value, no stored cell (freeze the corpus, then drop `stored`).
    const frozenPkg = openPackage(fidelityBook());
    const frozen = freezePackage(frozenPkg, readWorkbook(frozenPkg).model, {
      now: new Date(),
    }).editor.write();
    const editor = new PackageEditor(openPackage(frozen));
    const [part] = frozenParts(editor);
    const cells = parseFrozenParts([editor.text(part?.item as string)]).filter((c) => c.spill === undefined);
    editor.setText(part?.item as string, serializeFrozen(cells.map(({ stored: _stored, ...c }) => c)));
    const thawed = thawPackage(openPackage(editor.write()), {});
    expect(thawed.restored).toHaveLength(cells.length);
    const model = cellsOf(thawed.editor.text(SHEET_PARTS.Model));
    expect(model.get("C3")).toBe(
      '<c r="C3" s="2"><f>_xldudf_FDQ_DATAPOINT(A3,"metrics/roic","ROIC",B3)</f><v>0.3</v></c>',
    );
  });
});

describe("fdq thaw of a calculation chain freeze removed", () => {
  it("puts the chain back with its relationship and content type where they were: every part as it was", () => {
    // A chain naming only FDQ cells: freezing them all leaves it empty, so freeze removes it.
    const parts = fidelityParts();
    parts["xl/calcChain.xml"] =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
      '<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<c r="B3" i="1" l="1"/><c r="D1"/><c r="C2" i="2" l="1"/><c r="C3"/><c r="C4"/><c r="F1"/></calcChain>';
    const input = zipParts(parts);
    const pkg = openPackage(input);
    const frozen = freezePackage(pkg, readWorkbook(pkg).model, { now: new Date() }).editor.write();
    const afterFreeze = unzipSync(frozen);
    expect(afterFreeze["xl/calcChain.xml"]).toBeUndefined();
    expect(text(afterFreeze["[Content_Types].xml"])).not.toContain("calcChain");
    expect(text(afterFreeze["xl/_rels/workbook.xml.rels"])).not.toContain("calcChain");
    const thawed = unzipSync(thawPackage(openPackage(frozen), {}).editor.write());
    const before = unzipSync(input);
    expect(Object.keys(thawed).sort()).toEqual(Object.keys(before).sort());
    for (const name of Object.keys(before))
      expect({ name, text: text(thawed[name]) }).toEqual({ name, text: text(before[name]) });
  });

  it("leaves a chain Excel rewrote since the freeze as it is", () => {
    const pkg = openPackage(fidelityBook());
    const editor = freezePackage(pkg, readWorkbook(pkg).model, { now: new Date() }).editor;
    const rewritten =
      '<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="B4" i="1"/></calcChain>';
    editor.setText("xl/calcChain.xml", rewritten);
    const thawed = unzipSync(thawPackage(openPackage(editor.write()), {}).editor.write());
    expect(text(thawed["xl/calcChain.xml"])).toBe(rewritten);
  });
});
