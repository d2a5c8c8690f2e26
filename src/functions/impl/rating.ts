import { FdqError, InvalidArgumentError, type RatingsRecord } from "../../api";
import { RATING_FIELDS, type RatedType, type RatingField } from "../../catalog";
import { choiceArg, show } from "./args";
import { forwarded, type FdqApi } from "./client";
import { tickerArg } from "./ticker-arg";

export interface RatingArgs {
  ticker?: unknown;
  field?: unknown;
}

const OVERALL = RATING_FIELDS.find((f) => f.short === "overall") as RatingField;
const TYPE_NAMES: Readonly<Record<RatedType, string>> = { stock: "stocks", etf: "ETFs", mf: "mutual funds" };

/**
 * Each field by its short name, record field name and definition number, built once: a worksheet asks one
 * per FDQ.RATING cell. Where two fields shared a key, the first in catalog order would win, as a search would.
 */
const BY_KEY: ReadonlyMap<string, RatingField> = (() => {
  const byKey = new Map<string, RatingField>();
  for (const f of RATING_FIELDS) {
    for (const key of [f.short, f.field, String(f.definition)]) if (!byKey.has(key)) byKey.set(key, f);
  }
  return byKey;
})();

/** A rating field by short name, record field name or data-definition number 1..9; overall when omitted. */
export function parseRatingField(value: unknown): RatingField {
  const key = choiceArg(value, "field");
  if (key === undefined) return OVERALL;
  const found = BY_KEY.get(key);
  if (found) return found;
  const names = RATING_FIELDS.map((f) => f.short).join(", ");
  throw new InvalidArgumentError({
    argument: "field",
    message: `field must be one of ${names}, a record field such as rating_roic, or a number 1 to 9 (got ${show(value)}).`,
  });
}

/** The field is in the catalog but not in this security's record: say which securities carry it. */
function notApplicable(field: RatingField, ticker: string): FdqError {
  const types = field.appliesTo.map((t) => TYPE_NAMES[t]).join(" and ");
  return new FdqError({
    message: `The ${field.short} rating (${field.label}) does not apply to ${ticker}: it exists for ${types} only.`,
  });
}

/** The value of `field` in a security's ratings record, or why there is none. */
function ratingOf(field: RatingField, data: RatingsRecord): number | string {
  if (field.field === "name") return data.name;
  const value = data.ratings[field.field];
  if (value !== undefined) return value;
  const rated = Object.keys(TYPE_NAMES) as RatedType[];
  if (!rated.every((t) => field.appliesTo.includes(t))) {
    throw notApplicable(field, data.ticker);
  }
  throw new FdqError({
    message: `The service sent no ${field.short} rating (${field.label}) for ${data.ticker}.`,
  });
}

/**
 * FDQ.RATING: a component rating 1 (very attractive) .. 5 (very unattractive), or the name for field 9. Not
 * `async`, as FDQ.DATAPOINT: one promise fewer per cell of a sheet of thousands of ratings.
 */
export function rating(client: FdqApi, args: RatingArgs): Promise<number | string> {
  try {
    const field = parseRatingField(args.field);
    return client.ratings(forwarded(tickerArg(args.ticker))).then((result) => ratingOf(field, result.data));
  } catch (err) {
    return Promise.reject(err);
  }
}
