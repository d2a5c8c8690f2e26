// A formula as stored in an .xlsx, with its FDQ calls in the one form the engine knows (FDQ.NAME). The
// rewriting is lexical only, outside "text" literals:
// - Excel saves JavaScript custom functions as _xldudf_FDQ_NAME(...), sometimes behind an external-book prefix
//   ([2]!_xldudf_...) when the add-in was registered from another file;
// - a function Excel could not find is saved as _xludf.FDQ.NAME(...);
// - a user may type fdq.datapoint(...) in lower case.
// All become FDQ.NAME(...).
import { afterQuoted } from "../functions/formula";

export interface EngineFormula {
  /** The text for the engine, without the leading "=". */
  readonly text: string;
  /** Whether the formula calls an FDQ function. */
  readonly callsFdq: boolean;
}

const FDQ_CALL = /(?:\[\d+\]!)?(?:_xldudf_FDQ_|_xludf\.FDQ\.|FDQ\.)([A-Za-z]+)(?=\s*\()/iy;
const NAME_CHAR = /[A-Za-z0-9_.$\\]/;

export function engineFormula(stored: string): EngineFormula {
  const text = stored.trim().replace(/^=/, "");
  let out = "";
  let callsFdq = false;
  for (let i = 0; i < text.length;) {
    const ch = text.charAt(i);
    if (ch === '"' || ch === "'") {
      const end = afterQuoted(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    // Only where a call can start (F, f, _ or [), and not inside a longer name.
    const starts = ch === "F" || ch === "f" || ch === "_" || ch === "[";
    const afterName = i > 0 && NAME_CHAR.test(text.charAt(i - 1));
    FDQ_CALL.lastIndex = i;
    const call = !starts || afterName ? null : FDQ_CALL.exec(text);
    if (call) {
      out += `FDQ.${(call[1] as string).toUpperCase()}`;
      callsFdq = true;
      i += call[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return { text: out, callsFdq };
}
