// An in-memory WorkbookAccess. Its full calculation runs formulas that are one FDQ call with literal arguments
// through the real function implementations and client, as Excel's shared runtime would; other formulas keep
// the value they were given. It records each batch of referenced cells read.
import type { FdqClient } from "../../../src/api";
import { describeFailure } from "../../../src/functions/errors";
import { readFdqCall } from "../../../src/functions/formula";
import { evaluateCall } from "../../../src/functions/impl";
import { cellAddress, parseAddress } from "../../../src/taskpane/office/a1";
import {
  isFdqFormula,
  type CellSnapshot,
  type CellValue,
  type WorkbookAccess,
} from "../../../src/taskpane/office/workbook";

/** A formula or constant as typed, or a formula with the value it shows (for formulas the fake does not run). */
export type SeedCell = string | number | boolean | { readonly formula: string; readonly value: CellValue };

interface Cell {
  formula: string;
  value: CellValue;
}

export interface FakeWorkbook extends WorkbookAccess {
  readonly cells: Map<string, Cell>;
  readonly calculations: number;
  /** The addresses asked of cellValues, one list per call (per Excel.run). */
  readonly reads: string[][];
  selected: string;
  /** Resolves when every calculation started so far has settled. */
  settled(): Promise<void>;
}

function toCell(seed: SeedCell): Cell {
  if (typeof seed === "object") return { ...seed };
  if (typeof seed === "string" && seed.startsWith("=")) return { formula: seed, value: "" };
  return { formula: "", value: seed };
}

export function fakeWorkbook(client: FdqClient, cells: Record<string, SeedCell>): FakeWorkbook {
  // Addresses as Excel writes them ("'My Sheet'!A1"), whatever the seed's spelling.
  const canonical = (address: string): string => cellAddress(parseAddress(address));
  const map = new Map(Object.entries(cells).map(([address, seed]) => [canonical(address), toCell(seed)]));
  const sheets = new Set([...map.keys()].map((a) => parseAddress(a).sheet));
  let calculations = 0;
  const reads: string[][] = [];
  const pending: Promise<void>[] = [];
  const evaluate = (address: string): void => {
    const cell = map.get(address);
    if (!cell || !isFdqFormula(cell.formula)) return;
    let call;
    try {
      call = readFdqCall(cell.formula);
    } catch {
      return; // references or a wrapped call: the value given stays
    }
    pending.push(
      evaluateCall(client, call, describeFailure).then(
        (result) => {
          const first = Array.isArray(result) ? result[0]?.[0] : result;
          cell.value = typeof first !== "object" ? (first ?? "") : "error" in first ? first.error : "";
        },
        (err) => void (cell.value = describeFailure(err).error),
      ),
    );
  };
  const snapshot = (address: string): CellSnapshot => {
    const cell = map.get(address);
    return { address, formula: cell?.formula || String(cell?.value ?? ""), value: cell?.value ?? "" };
  };
  const fake: FakeWorkbook = {
    cells: map,
    get calculations() {
      return calculations;
    },
    reads,
    selected: [...map.keys()][0] ?? "Sheet1!A1",
    selectedCell: async () => snapshot(fake.selected),
    writeSelectedCell: async (formula) => {
      map.set(fake.selected, { formula, value: "" });
      evaluate(fake.selected);
      return fake.selected;
    },
    fdqCells: async () => [...map.keys()].filter((a) => isFdqFormula(map.get(a)?.formula)).map(snapshot),
    selectedFdqCells: async () => [snapshot(fake.selected)].filter((c) => isFdqFormula(c.formula)),
    activeSheetFdqCells: async () => {
      const sheet = parseAddress(fake.selected).sheet;
      return (await fake.fdqCells()).filter((c) => parseAddress(c.address).sheet === sheet);
    },
    reenterFormulas: async (addresses) => {
      const entered = addresses.filter((a) => isFdqFormula(map.get(a)?.formula));
      for (const address of entered) evaluate(address);
      return entered.length;
    },
    freeze: () => Promise.reject(new Error("the fake workbook does not freeze")),
    frozenFormulas: async () => [],
    restoreFormulas: () => Promise.reject(new Error("the fake workbook does not restore")),
    fileBytes: () => Promise.reject(new Error("the fake workbook has no file")),
    openCopy: () => Promise.reject(new Error("the fake workbook opens no copy")),
    calculateFull: async () => {
      calculations++;
      for (const address of map.keys()) evaluate(address);
    },
    selectCell: async (address) => void (fake.selected = address),
    cellValues: async (addresses) => {
      reads.push([...addresses]);
      const known = addresses.filter((a) => sheets.has(parseAddress(a).sheet));
      return new Map(known.map((a) => [a, map.get(a)?.value ?? ""]));
    },
    settled: async () => {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    },
  };
  return fake;
}
