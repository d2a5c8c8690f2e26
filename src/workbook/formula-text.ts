// A formula as stored in an .xlsx, turned into the text the formula engine (fast-formula-parser) reads. The
// rewriting is lexical only, outside "text" literals; evaluating is the engine's job:
// - Excel saves JavaScript custom functions as _xldudf_FDQ_NAME(...), sometimes behind an external-book prefix
//   ([2]!_xldudf_...) when the add-in was registered from another file; both become FDQ.NAME(...).
// - A number with an unsigned exponent (1e6, written by tools other than Excel, which would store 1000000) is
//   given its sign (1e+6): the engine's lexer only knows the signed form.
// - References to another workbook ([1]Sheet1!A1, '[Book.xlsx]Sheet 1'!$B$2) cannot be read from this file: each
//   becomes a name the caller resolves to "unknown", so the formula's other references are still found.
import { afterQuoted } from "../functions/formula";

export interface EngineFormula {
  /** The text for the engine, without the leading "=". */
  readonly text: string;
  /** Whether the formula calls an FDQ function. */
  readonly callsFdq: boolean;
  /** The references to other workbooks, as written, in order (their names are EXTERNAL_NAME + index). */
  readonly external: readonly string[];
}

/** Names the engine sees in place of external references: EXTERNAL_NAME0, EXTERNAL_NAME1... */
export const EXTERNAL_NAME = "FDQ_EXTERNAL_REFERENCE_";

const FDQ_SAVED = /(?:\[\d+\]!)?_xldudf_FDQ_([A-Za-z]+)(?=\s*\()/gy;
const FDQ_TYPED = /FDQ\.[A-Za-z]+\s*\(/iy;
const EXPONENT = /(\d+\.?\d*|\.\d+)[eE](\d)/y;
const NAME_CHAR = /[A-Za-z0-9_.$]/;
/** After an external book's `[...]`: the sheet (or nothing, for a book-level name), `!`, then a cell, range or name. */
const EXTERNAL_TAIL = /[^!'"(),;\s]*!\$?[A-Za-z_][A-Za-z0-9_.]*\$?\d*(?::\$?[A-Za-z]+\$?\d*)?/y;
const QUOTED_TAIL = /!\$?[A-Za-z_][A-Za-z0-9_.]*\$?\d*(?::\$?[A-Za-z]+\$?\d*)?/y;

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

export function engineFormula(stored: string): EngineFormula {
  const text = stored.trim().replace(/^=/, "");
  let out = "";
  let callsFdq = false;
  const external: string[] = [];
  const externalName = (written: string): string => {
    external.push(written);
    return `${EXTERNAL_NAME}${external.length - 1}`;
  };
  for (let i = 0; i < text.length;) {
    const ch = text.charAt(i);
    const afterName = i > 0 && NAME_CHAR.test(text.charAt(i - 1));
    if (ch === '"') {
      const end = afterQuoted(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (ch === "'") {
      const end = afterQuoted(text, i);
      const tail = matchAt(QUOTED_TAIL, text, end);
      if (text.slice(i, end).includes("[") && tail) {
        out += externalName(text.slice(i, end + tail[0].length));
        i = end + tail[0].length;
      } else {
        out += text.slice(i, end);
        i = end;
      }
      continue;
    }
    const saved = afterName ? null : matchAt(FDQ_SAVED, text, i);
    if (saved) {
      out += `FDQ.${saved[1]}`;
      callsFdq = true;
      i += saved[0].length;
      continue;
    }
    if (ch === "[" && !afterName) {
      const close = text.indexOf("]", i);
      const tail = close < 0 ? null : matchAt(EXTERNAL_TAIL, text, close + 1);
      if (tail) {
        out += externalName(text.slice(i, close + 1 + tail[0].length));
        i = close + 1 + tail[0].length;
        continue;
      }
    }
    if (!afterName && (ch === "F" || ch === "f") && matchAt(FDQ_TYPED, text, i)) callsFdq = true;
    const exponent = afterName ? null : matchAt(EXPONENT, text, i);
    if (exponent) {
      out += `${exponent[1]}e+${exponent[2]}`;
      i += exponent[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return { text: out, callsFdq, external };
}
