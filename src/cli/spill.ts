// Writing a spilled result into a workbook as Excel does: the anchor keeps its formula with the first value as
// its cached result, the other values go into the cells to the right and below. When any cell of that range
// holds the user's data (a value or a formula), Excel shows #SPILL! in the anchor and writes nothing else,
// and so does fdq. The range fdq last wrote for an anchor is kept in a hidden defined name
// (_FDQ_SPILL.<sheet id>.<anchor>), so its values are not taken for the user's data and the remnants of a
// larger earlier spill are cleared.
import ExcelJS from "exceljs";

export type Written = number | string | boolean | ExcelJS.CellErrorValue;

const SPILL_NAME = "_FDQ_SPILL.";

const spillName = (cell: ExcelJS.Cell): string => `${SPILL_NAME}${cell.worksheet.id}.${cell.address}`;

/** Cells of a rectangle given by its top-left cell and its size. */
function area(
  sheet: ExcelJS.Worksheet,
  row: number,
  col: number,
  rows: number,
  cols: number,
): ExcelJS.Cell[] {
  const cells: ExcelJS.Cell[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) cells.push(sheet.getCell(row + r, col + c));
  return cells;
}

/** "$A$1:$C$4" for the rectangle, in the sheet's quoted form. */
function rangeText(sheet: ExcelJS.Worksheet, first: ExcelJS.Cell, last: ExcelJS.Cell): string {
  const abs = (c: ExcelJS.Cell) => `$${c.address.replace(/\d+$/, "")}$${c.row}`;
  return `'${sheet.name.replace(/'/g, "''")}'!${abs(first)}:${abs(last)}`;
}

/** The cells fdq wrote for `anchor`'s previous spill, anchor excluded. */
function previousSpill(workbook: ExcelJS.Workbook, anchor: ExcelJS.Cell): ExcelJS.Cell[] {
  const entry = workbook.definedNames.model.find((n) => n.name === spillName(anchor));
  const match = /!\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)$/.exec(entry?.ranges[0] ?? "");
  if (!match) return [];
  const sheet = anchor.worksheet;
  const first = sheet.getCell(`${match[1]}${match[2]}`);
  const last = sheet.getCell(`${match[3]}${match[4]}`);
  const rows = Number(last.row) - Number(first.row) + 1;
  const cols = Number(last.col) - Number(first.col) + 1;
  return area(sheet, Number(first.row), Number(first.col), rows, cols).filter((c) => c !== anchor);
}

function remember(workbook: ExcelJS.Workbook, anchor: ExcelJS.Cell, range: string | undefined): void {
  const name = spillName(anchor);
  const others = workbook.definedNames.model.filter((n) => n.name !== name);
  workbook.definedNames.model = range ? [...others, { name, ranges: [range] }] : others;
}

const holdsData = (cell: ExcelJS.Cell): boolean =>
  cell.type === ExcelJS.ValueType.Formula || (cell.value !== null && cell.value !== undefined);

/**
 * Writes `rows` (already in the file's cell form) from the anchor; answers the cells of the user's data that
 * blocked the spill (then the anchor's result is #SPILL! and nothing else was written), or an empty list.
 */
export function writeSpill(
  workbook: ExcelJS.Workbook,
  anchor: ExcelJS.Cell,
  formula: string,
  rows: readonly (readonly Written[])[],
): string[] {
  const sheet = anchor.worksheet;
  const height = rows.length;
  const width = Math.max(1, ...rows.map((r) => r.length));
  const ours = new Set(previousSpill(workbook, anchor));
  const target = area(sheet, Number(anchor.row), Number(anchor.col), height, width).filter(
    (c) => c !== anchor,
  );
  const blocked = target.filter((c) => (ours.has(c) ? c.type === ExcelJS.ValueType.Formula : holdsData(c)));
  // A previous spill's cells that this result does not cover (or all of them, when it cannot spill).
  const keep = new Set(blocked.length > 0 ? [] : target);
  for (const cell of ours) if (!keep.has(cell) && cell.type !== ExcelJS.ValueType.Formula) cell.value = null;
  if (blocked.length > 0) {
    remember(workbook, anchor, undefined);
    const spill = { error: "#SPILL!" } as unknown as ExcelJS.CellErrorValue; // ExcelJS's type lacks #SPILL!
    anchor.value = { formula, result: spill } as ExcelJS.CellFormulaValue;
    return blocked.map((c) => c.address);
  }
  rows.forEach((row, r) =>
    row.forEach((value, c) => {
      if (r > 0 || c > 0) sheet.getCell(Number(anchor.row) + r, Number(anchor.col) + c).value = value;
    }),
  );
  anchor.value = { formula, result: rows[0]?.[0] ?? "" } as ExcelJS.CellFormulaValue;
  const last = sheet.getCell(Number(anchor.row) + height - 1, Number(anchor.col) + width - 1);
  remember(workbook, anchor, height * width > 1 ? rangeText(sheet, anchor, last) : undefined);
  return [];
}
