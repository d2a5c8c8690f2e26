// The one rule for the forms an FDQ call takes in a formula's text, and for rewriting the forms Excel no longer
// recognises into the form it does. The task pane's formula doctor (text as Excel shows it) and `fdq repair`
// (text as stored in the .xlsx), `fdq refresh`'s reading of stored formulas (src/workbook/formula-text.ts) and
// the pane's finding of the calls in a formula (findFdqCalls, src/functions/formula.ts) all read calls through
// fdqCallHeads.
//
// The forms (docs/functions.md, "When Excel shows #NAME? on FDQ cells"):
// - FDQ.NAME(...): typed, and as Excel shows a call of a loaded add-in;
// - _xldudf_FDQ_NAME(...): how Excel stores a JavaScript custom function in the file; shown as is when Excel
//   could not bind it to the add-in when the workbook opened;
// - _xludf.FDQ.NAME(...): how Excel stores a function it did not know when the formula was entered (the add-in
//   was not loaded);
// - any of them behind an external-workbook prefix, [2]!, 'C:\...\BloombergUI.xla'! or BloombergUI.xla!, which
//   Excel adds when it took the function for one of another add-in's workbook (office-js#2051, #2568);
// - in lower or mixed case (fdq.datapoint): text Excel did not recognise as a function when it was entered.
// Only the call's head changes; its arguments and the rest of the formula are kept character for character.
import { afterQuoted } from "../formula/lexer";
import { isFunctionName, type FunctionName } from "./signatures";

/** Where a formula's text is read from: as Excel shows it (range.formulas), or as stored in the .xlsx. */
export type FormulaSurface = "excel" | "file";

/** One FDQ call's head in a formula: text[start, end) is its prefix and name, up to (not including) its "(". */
export interface FdqCallHead {
  readonly start: number;
  readonly end: number;
  /** The function's name in upper case ("DATAPOINT"), known or not. */
  readonly name: string;
  /** Whether `name` is an FDQ function. */
  readonly known: boolean;
  /** The external-workbook prefix with its "!" ("[2]!", "'C:\\x\\BloombergUI.xla'!"), or "". */
  readonly prefix: string;
  /** The head without the prefix, as written ("_xldudf_FDQ_DATAPOINT", "fdq.datapoint"). */
  readonly head: string;
}

const HEAD = /(_xldudf_FDQ_|_xludf\.FDQ\.|FDQ\.)([A-Za-z]+)(?=\s*\()/iy;
/** `[2]!` or `BloombergUI.xla!` (a quoted prefix is read by the scanner), then a head. */
const PREFIXED_HEAD =
  /(\[\d+\]!|[A-Za-z_][A-Za-z0-9_.]*!)?(_xldudf_FDQ_|_xludf\.FDQ\.|FDQ\.)([A-Za-z]+)(?=\s*\()/iy;
/** A character that continues a name or a reference: a call cannot start right after one. */
const NAME_CHAR = /[A-Za-z0-9_.$\\]/;

function headAt(text: string, at: number, prefix: string, start: number): FdqCallHead | undefined {
  HEAD.lastIndex = at;
  const m = HEAD.exec(text);
  if (!m) return undefined;
  const name = (m[2] as string).toUpperCase();
  return { start, end: at + m[0].length, name, known: isFunctionName(name), prefix, head: m[0] };
}

/** The FDQ calls' heads of a formula, in every form above, found outside "text" literals. */
export function fdqCallHeads(text: string): FdqCallHead[] {
  const heads: FdqCallHead[] = [];
  for (let i = 0; i < text.length;) {
    const ch = text.charAt(i);
    if (ch === '"') {
      i = afterQuoted(text, i);
      continue;
    }
    if (ch === "'") {
      // A quoted sheet or workbook name; a workbook's (an add-in's path) when an FDQ head follows its "!".
      const end = afterQuoted(text, i);
      const head = text.charAt(end) === "!" ? headAt(text, end + 1, text.slice(i, end + 1), i) : undefined;
      if (head) heads.push(head);
      i = head ? head.end : end;
      continue;
    }
    const starts = ch === "[" || ch === "_" || /[A-Za-z]/.test(ch);
    if (!starts || (i > 0 && NAME_CHAR.test(text.charAt(i - 1)))) {
      i++;
      continue;
    }
    PREFIXED_HEAD.lastIndex = i;
    const m = PREFIXED_HEAD.exec(text);
    if (!m) {
      i++;
      continue;
    }
    const prefix = m[1] ?? "";
    const name = (m[3] as string).toUpperCase();
    heads.push({
      start: i,
      end: i + m[0].length,
      name,
      known: isFunctionName(name),
      prefix,
      head: m[0].slice(prefix.length),
    });
    i += m[0].length;
  }
  return heads;
}

/** The head a call should have on `surface`: as Excel shows a loaded add-in's call, or as Excel stores it. */
export const canonicalHead = (name: FunctionName | string, surface: FormulaSurface): string =>
  surface === "excel" ? `FDQ.${name}` : `_xldudf_FDQ_${name}`;

/**
 * Whether Excel recognises this head as the add-in's function on `surface`. In a file, FDQ.NAME (what other
 * tools write, and what fdq itself writes) is left as it is too: see docs/functions.md.
 */
export function isRecognisedHead(head: FdqCallHead, surface: FormulaSurface): boolean {
  if (head.prefix !== "") return false;
  if (head.head === `FDQ.${head.name}`) return true;
  return surface === "file" && head.head === `_xldudf_FDQ_${head.name}`;
}

/** One head to rewrite: text[start, end) becomes `replacement`. */
export interface HeadEdit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

export interface RepairEdits {
  /** The heads of FDQ functions in a form Excel does not recognise on the surface, left to right. */
  readonly edits: readonly HeadEdit[];
  /** Heads in an unrecognised form whose name is not an FDQ function ("_xldudf_FDQ_NOSUCH"): left as they are. */
  readonly unknown: readonly string[];
}

/** What repairing the formula changes: each head to rewrite, and the heads left alone as not FDQ functions. */
export function repairEdits(text: string, surface: FormulaSurface): RepairEdits {
  const edits: HeadEdit[] = [];
  const unknown: string[] = [];
  for (const head of fdqCallHeads(text)) {
    if (isRecognisedHead(head, surface)) continue;
    if (head.known)
      edits.push({ start: head.start, end: head.end, replacement: canonicalHead(head.name, surface) });
    else unknown.push(text.slice(head.start, head.end));
  }
  return { edits, unknown };
}

/** `text` with the edits applied. */
export function applyEdits(text: string, edits: readonly HeadEdit[]): string {
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += text.slice(at, edit.start) + edit.replacement;
    at = edit.end;
  }
  return out + text.slice(at);
}

export interface FormulaRepair {
  /** The formula with every unrecognised head of an FDQ function rewritten; the rest as it was. */
  readonly text: string;
  /** Whether anything changed. */
  readonly changed: boolean;
  /** Heads in an unrecognised form whose name is not an FDQ function: left as they are. */
  readonly unknown: readonly string[];
}

/** The formula with its FDQ calls in the form Excel recognises on `surface` (see the module's comment). */
export function repairFormula(text: string, surface: FormulaSurface): FormulaRepair {
  const { edits, unknown } = repairEdits(text, surface);
  return { text: applyEdits(text, edits), changed: edits.length > 0, unknown };
}

/** Whether the formula calls an FDQ function in any form (known names only). */
export const callsFdqFunction = (text: string): boolean => fdqCallHeads(text).some((h) => h.known);
