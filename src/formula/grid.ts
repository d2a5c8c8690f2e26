// Excel's grid in A1 notation: its bounds and column letters (rows and columns 1-based).

export const MAX_ROW = 1_048_576;
export const MAX_COL = 16_384;

/** "AB" as 28. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}

/** 28 as "AB". */
export function columnLetters(col: number): string {
  let letters = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
