// Structured references (Tbl[Col], Tbl[@Col], Tbl[[#This Row],[Col]], Tbl[[#Headers],[#Data],[A]:[B]],
// Tbl[#Totals], [@Col] inside the table) as the rectangle of cells they name, from the table's ref, its
// header and totals row counts and its columns in order.
import { type Table } from "../model";
import type { Context } from "./context";
import { rectOf, type Rect } from "./references";
import { REF, Unsupported, VALUE } from "./values";
import type { ExcelError } from "../model";

type Area = "#all" | "#data" | "#headers" | "#totals" | "#this row";

/** Splits "a],[b" style lists at top-level commas, honouring brackets and ' escapes. */
function splitItems(inner: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner.charAt(i);
    if (ch === "'") i++;
    else if (ch === "[") depth++;
    else if (ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      items.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  items.push(inner.slice(start).trim());
  return items.filter((s) => s !== "");
}

/** "[Col]" or "Col" without brackets and ' escapes. */
function bare(item: string): string {
  const s = item.startsWith("[") && item.endsWith("]") ? item.slice(1, -1) : item;
  return s.replace(/'(.)/g, "$1").trim();
}

/** Splits "[A]:[B]" at its top-level colon. */
function splitColon(item: string): [string, string] | undefined {
  let depth = 0;
  for (let i = 0; i < item.length; i++) {
    const ch = item.charAt(i);
    if (ch === "'") i++;
    else if (ch === "[") depth++;
    else if (ch === "]") depth--;
    else if (ch === ":" && depth === 0) return [item.slice(0, i), item.slice(i + 1)];
  }
  return undefined;
}

export function structuredRect(tableName: string | undefined, spec: string, ctx: Context): Rect | ExcelError {
  const table: Table | undefined =
    tableName === undefined ? ctx.host.tableAt(ctx.sheet, ctx.row, ctx.col) : ctx.host.table(tableName);
  if (!table) {
    if (tableName === undefined) throw new Unsupported(`uses ${spec} outside a table`);
    throw new Unsupported(`uses the table ${tableName}, which is not in the workbook`);
  }
  const whole = rectOf(table.sheet, table.ref);
  if (!whole) return REF();
  const sheet = ctx.host.sheetName(table.sheet) ?? table.sheet;
  let inner = spec.slice(1, -1).trim();
  const areas = new Set<Area>();
  let columns: string[] = [];
  if (inner.startsWith("@")) {
    areas.add("#this row");
    inner = inner.slice(1).trim();
    if (inner !== "") columns = [inner];
  } else if (inner.startsWith("[")) {
    for (const item of splitItems(inner)) {
      const word = bare(item).toLowerCase();
      if (word.startsWith("#") && !splitColon(item)) areas.add(word as Area);
      else columns.push(item);
    }
  } else if (inner.startsWith("#")) {
    areas.add(inner.toLowerCase() as Area);
  } else if (inner !== "") {
    columns = [inner];
  }
  if (areas.size === 0) areas.add("#data");

  const headerEnd = whole.top + table.headerRowCount - 1;
  const dataTop = whole.top + table.headerRowCount;
  const dataBottom = whole.bottom - table.totalsRowCount;
  let top = Infinity;
  let bottom = -Infinity;
  const take = (t: number, b: number): void => {
    top = Math.min(top, t);
    bottom = Math.max(bottom, b);
  };
  for (const area of areas) {
    if (area === "#all") take(whole.top, whole.bottom);
    else if (area === "#data") take(dataTop, dataBottom);
    else if (area === "#headers") {
      if (table.headerRowCount === 0) return REF();
      take(whole.top, headerEnd);
    } else if (area === "#totals") {
      if (table.totalsRowCount === 0) return REF();
      take(dataBottom + 1, whole.bottom);
    } else if (area === "#this row") {
      if (ctx.row < dataTop || ctx.row > dataBottom) return VALUE();
      take(ctx.row, ctx.row);
    } else throw new Unsupported(`uses the structured reference ${spec}, which fdq refresh does not read`);
  }
  if (top > bottom) return REF();

  const indexOf = (item: string): number => {
    const name = bare(item).toLowerCase();
    const i = table.columns.findIndex((c) => c.name.toLowerCase() === name);
    if (i < 0)
      throw new Unsupported(`uses the column ${bare(item)} of ${table.name}, which it does not have`);
    return i;
  };
  let left = whole.left;
  let right = whole.right;
  if (columns.length > 0) {
    const indexes = columns.flatMap((c) => {
      const pair = splitColon(c);
      return pair ? [indexOf(pair[0]), indexOf(pair[1])] : [indexOf(c)];
    });
    left = whole.left + Math.min(...indexes);
    right = whole.left + Math.max(...indexes);
  }
  return { sheet, top, bottom, left, right };
}
