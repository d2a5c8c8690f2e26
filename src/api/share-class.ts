// Which ticker may answer a request for a ticker. Spec fact 5: "A company with several classes of common
// stock returns the same data for every class; results carry the primary ticker of the company" (the
// sandbox answers BF.B with BF.A's records). The client has no list of share classes, so it accepts
// another ticker only when both name classes of one root: the same letters before a class suffix written
// with a separator (".", "-", "/" or a space and one or two letters: BF.B/BF.A, BRK-B/BRK.A, HEI/HEI.A).
// Classes written without a separator (GOOG/GOOGL) cannot be told from another company (AAP/AAPL) and
// are refused: a #N/A that names both tickers, never another company's value. Inactive tickers
// ("ENRN:1", spec fact 6) are different companies: never a class of one another.
import { BadResponseError } from "./errors";

const CLASS_SUFFIX = /^(.+?)[.\-/ ][A-Z]{1,2}$/;

/** The ticker without a share-class suffix ("BF" for "BF.B"). */
export const classRoot = (ticker: string): string => CLASS_SUFFIX.exec(ticker)?.[1] ?? ticker;
const root = classRoot;

/** Whether `answered` may carry the data of a request for `asked`: the same, or a class of one root. */
export function answersTicker(answered: string, asked: string): boolean {
  const a = answered.trim().toUpperCase();
  const q = asked.trim().toUpperCase();
  if (a === q) return true;
  if (a.includes(":") || q.includes(":")) return false;
  return root(a) === root(q);
}

/** A name or ticker from an answer, cut for a message (a hostile answer's names can be any length). */
export const clipName = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** Throws the BadResponse of a record for another ticker than `asked`; `what` names the record. */
export function checkTicker(answered: string, asked: string, what: string): void {
  if (!answersTicker(answered, asked)) {
    throw new BadResponseError({
      detail: `an answer for ticker ${clipName(answered)}, not ${asked} (${what})`,
    });
  }
}
