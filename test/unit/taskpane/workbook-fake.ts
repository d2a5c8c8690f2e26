// An in-memory WorkbookAccess whose full calculation runs FDQ.DATAPOINT cells through the real function
// implementation and client, as Excel's shared runtime would.
import type { FdqClient } from "../../../src/api";
import { datapoint } from "../../../src/functions/impl/datapoint";
import { parseFormula } from "../../../src/functions/formula";
import {
  isFdqFormula,
  type CellSnapshot,
  type CellValue,
  type WorkbookAccess,
} from "../../../src/taskpane/office/workbook";

export interface FakeWorkbook extends WorkbookAccess {
  readonly cells: Map<string, { formula: string; value: CellValue }>;
  readonly calculations: number;
  selected: string;
  /** Resolves when every calculation started so far has settled. */
  settled(): Promise<void>;
}

export function fakeWorkbook(client: FdqClient, cells: Record<string, string>): FakeWorkbook {
  const map = new Map(
    Object.entries(cells).map(([address, formula]) => [address, { formula, value: "" as CellValue }]),
  );
  let calculations = 0;
  const pending: Promise<void>[] = [];
  const evaluate = (address: string): void => {
    const cell = map.get(address);
    if (!cell || !isFdqFormula(cell.formula)) return;
    const call = parseFormula(cell.formula);
    const [ticker, dataset, name, year, quarter, ttm] = call.args;
    pending.push(
      datapoint(client, { ticker, dataset, name, year, quarter, ttm }).then(
        (value) => void (cell.value = value),
        (err: { excelCode?: string }) => void (cell.value = err.excelCode ?? "#VALUE!"),
      ),
    );
  };
  const snapshot = (address: string): CellSnapshot => {
    const cell = map.get(address);
    return { address, formula: cell?.formula ?? "", value: cell?.value ?? "" };
  };
  const fake: FakeWorkbook = {
    cells: map,
    get calculations() {
      return calculations;
    },
    selected: Object.keys(cells)[0] ?? "Sheet1!A1",
    selectedCell: async () => snapshot(fake.selected),
    writeSelectedCell: async (formula) => {
      map.set(fake.selected, { formula, value: "" });
      evaluate(fake.selected);
      return fake.selected;
    },
    fdqCells: async () => [...map.keys()].filter((a) => isFdqFormula(map.get(a)?.formula)).map(snapshot),
    selectedFdqCells: async () => [snapshot(fake.selected)].filter((c) => isFdqFormula(c.formula)),
    freezeSelection: async () => 0,
    calculateFull: async () => {
      calculations++;
      for (const address of map.keys()) evaluate(address);
    },
    selectCell: async (address) => void (fake.selected = address),
    settled: async () => {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    },
  };
  return fake;
}
