// A1-style addresses of cells, for messages and for the ranges written into the file.

export function columnLetters(col: number): string {
  let letters = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** "B3". */
export const addressOfCell = (row: number, col: number): string => `${columnLetters(col)}${row}`;

/** "Model!B3", as the report names a cell. */
export const addressOf = (cell: {
  readonly sheet: string;
  readonly row: number;
  readonly col: number;
}): string => `${cell.sheet}!${addressOfCell(cell.row, cell.col)}`;
