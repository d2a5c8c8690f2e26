// A formula as stored in an .xlsx, with its FDQ calls in the one form the engine knows (FDQ.NAME): every form
// an FDQ call takes in a file (_xldudf_FDQ_NAME, _xludf.FDQ.NAME, lower case, behind an external-workbook prefix
// such as [2]! or 'C:\...\BloombergUI.xla'!) is read by src/functions/formula-repair.ts, the one rule for them.
import { fdqCallHeads } from "../functions/formula-repair";

export interface EngineFormula {
  /** The text for the engine, without the leading "=". */
  readonly text: string;
  /** Whether the formula calls an FDQ function. */
  readonly callsFdq: boolean;
}

export function engineFormula(stored: string): EngineFormula {
  const text = stored.trim().replace(/^=/, "");
  const heads = fdqCallHeads(text);
  if (heads.length === 0) return { text, callsFdq: false };
  let out = "";
  let at = 0;
  for (const head of heads) {
    out += `${text.slice(at, head.start)}FDQ.${head.name}`;
    at = head.end;
  }
  return { text: out + text.slice(at), callsFdq: true };
}
