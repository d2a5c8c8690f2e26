// How `fdq eval` prints an outcome. Plain: a value as is, a spilled result as tab-separated rows, an error
// as its code, a space and its message. --json: one JSON value per formula on one line.
import type { ExcelErrorValue } from "../functions/errors";
import { isErrorValue, type Outcome } from "./evaluate";

type Cell = number | string | boolean | ExcelErrorValue;

function plainCell(cell: Cell): string {
  if (isErrorValue(cell)) return `${cell.error} ${cell.message}`;
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  return String(cell);
}

export function formatPlain(outcome: Outcome): string {
  if (!outcome.ok) return plainCell(outcome.error);
  const value = outcome.value;
  if (!Array.isArray(value)) return plainCell(value);
  return value.map((row) => row.map(plainCell).join("\t")).join("\n");
}

function jsonCell(cell: Cell): unknown {
  return isErrorValue(cell) ? { error: cell.error, message: cell.message } : cell;
}

export function formatJson(outcome: Outcome): string {
  if (!outcome.ok) return JSON.stringify(jsonCell(outcome.error));
  const value = outcome.value;
  return JSON.stringify(Array.isArray(value) ? value.map((row) => row.map(jsonCell)) : value);
}
