// Reading a whole workbook without hitting Excel on the web's payload cap. Excel on the web refuses one
// request or response over 5 MB (docs: "Resource limits and performance optimization of Office Add-ins";
// ../shared/notes/office-platform.md), and one batch that loads every sheet's used range exceeds it on a
// large model. So the reads go sheet by sheet and split a big sheet into blocks of rows (and of columns
// for a very wide one), each planned to answer well under the cap, with one sync per block.

/** Excel on the web's cap on one request or one response. */
export const PAYLOAD_LIMIT_BYTES = 5_000_000;

/**
 * What one block's answer is planned to weigh: under half the cap, so a block whose cells are twice as long
 * as those measured so far still fits.
 */
export const READ_BUDGET_BYTES = 2_000_000;

/**
 * What a cell is assumed to weigh in formulas plus values before a block of its sheet was measured: an FDQ
 * formula (about 80 characters) and its value, JSON-quoted. Measured sizes replace it after the first block.
 */
export const FIRST_BYTES_PER_CELL = 160;

/** The lightest a cell is assumed to weigh ("" and "" with separators), so empty blocks do not grow blocks without bound. */
const MIN_BYTES_PER_CELL = 8;

export interface Box {
  readonly row: number;
  readonly column: number;
  readonly rows: number;
  readonly columns: number;
}

/** One block of a sheet as read: its position in the sheet, formulas and values. */
export interface SheetBlock {
  readonly sheet: string;
  readonly row: number;
  readonly column: number;
  readonly formulas: readonly (readonly unknown[])[];
  readonly values: readonly (readonly unknown[])[];
}

const encoder = new TextEncoder();

/** The UTF-8 size of a block's answer as JSON, as Excel sends it. */
export function answerBytes(formulas: unknown, values: unknown): number {
  return encoder.encode(JSON.stringify(formulas)).length + encoder.encode(JSON.stringify(values)).length;
}

/** The block of `area` starting at (row, column) sized to weigh `budget` at `bytesPerCell`. */
export function nextBlock(area: Box, row: number, column: number, bytesPerCell: number, budget: number): Box {
  const perCell = Math.max(MIN_BYTES_PER_CELL, bytesPerCell);
  const columns = Math.min(area.column + area.columns - column, Math.max(1, Math.floor(budget / perCell)));
  const rows = Math.min(area.row + area.rows - row, Math.max(1, Math.floor(budget / (columns * perCell))));
  return { row, column, rows, columns };
}

/** Whether Excel refused a batch for its size (RichApi.Error RequestPayloadSizeLimitExceeded / Response...). */
export function isPayloadTooLarge(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && /PayloadSizeLimitExceeded$/.test(code);
}

export interface BlockReader {
  /** Reads one block of the sheet in one sync. */
  read(box: Box): Promise<Pick<SheetBlock, "formulas" | "values">>;
}

/**
 * Reads `area` of `sheet` block by block, each sized from the cells measured so far; a block Excel still
 * refuses for its size is read again as halves.
 */
export async function readInBlocks(
  sheet: string,
  area: Box,
  reader: BlockReader,
  budget: number = READ_BUDGET_BYTES,
): Promise<SheetBlock[]> {
  const blocks: SheetBlock[] = [];
  let bytesPerCell = FIRST_BYTES_PER_CELL;
  const readBox = async (box: Box): Promise<void> => {
    try {
      const { formulas, values } = await reader.read(box);
      bytesPerCell = answerBytes(formulas, values) / (box.rows * box.columns);
      blocks.push({ sheet, row: box.row, column: box.column, formulas, values });
    } catch (err) {
      if (!isPayloadTooLarge(err) || box.rows * box.columns === 1) throw err;
      bytesPerCell *= 2;
      const byRows = box.rows > 1;
      const half = Math.ceil((byRows ? box.rows : box.columns) / 2);
      const first = byRows ? { ...box, rows: half } : { ...box, columns: half };
      const second = byRows
        ? { ...box, row: box.row + half, rows: box.rows - half }
        : { ...box, column: box.column + half, columns: box.columns - half };
      await readBox(first);
      await readBox(second);
    }
  };
  for (let row = area.row; row < area.row + area.rows;) {
    let height = 0;
    for (let column = area.column; column < area.column + area.columns;) {
      const box = nextBlock(area, row, column, bytesPerCell, budget);
      // Every column block of a band has the band's rows, so the bands tile the area.
      const band = height === 0 ? box : { ...box, rows: height };
      height = band.rows;
      await readBox(band);
      column += band.columns;
    }
    row += height;
  }
  return blocks;
}

/** Splits `items` into chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
