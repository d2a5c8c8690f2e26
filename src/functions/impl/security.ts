import { DataNotFoundError, InvalidArgumentError, SECURITY_FIELDS, type SecurityType } from "../../api";
import { choiceArg, show } from "./args";
import { forwarded, type FdqApi } from "./client";
import { tickerArg } from "./ticker-arg";

export interface SecurityArgs {
  ticker?: unknown;
  field?: unknown;
  type?: unknown;
}

type SecurityField = (typeof SECURITY_FIELDS)[number];

/** Types tried, in order, when the type is omitted: most look-ups are stocks, then ETFs, then funds. */
export const TYPE_SEARCH_ORDER: readonly SecurityType[] = ["stock", "etf", "mf"];

export function parseSecurityField(value: unknown): SecurityField {
  const key = choiceArg(value, "field");
  const found = SECURITY_FIELDS.find((f) => f === key);
  if (found) return found;
  throw new InvalidArgumentError({
    argument: "field",
    message:
      key === undefined
        ? `field is missing: give one of ${SECURITY_FIELDS.join(", ")}.`
        : `field must be one of ${SECURITY_FIELDS.join(", ")} (got ${show(value)}).`,
  });
}

/** The types to ask, in order: the given one; "inactive" for a colon ticker (ENRN:1); else stock, etf, mf. */
export function securityTypesToTry(ticker: unknown, type: unknown): readonly unknown[] {
  if (choiceArg(type, "type") !== undefined) return [type];
  if (typeof ticker === "string" && ticker.includes(":")) return ["inactive"];
  return TYPE_SEARCH_ORDER;
}

/**
 * FDQ.SECURITY: one field of the single-security coverage record. Without a type, a "not found" answer
 * moves on to the next type; any other failure (key, network) ends the search with that error.
 */
export async function security(client: FdqApi, args: SecurityArgs): Promise<string> {
  const field = parseSecurityField(args.field);
  const ticker = tickerArg(args.ticker);
  const { data } = await findSecurity(client, ticker, args.type);
  return data[field];
}

/**
 * The coverage record of a security: of the given type, or (no type) the first of stock, ETF and fund that knows
 * the ticker (FDQ.SECURITY and FDQ.CARD).
 */
export async function findSecurity(
  client: FdqApi,
  ticker: unknown,
  type: unknown,
): Promise<Awaited<ReturnType<FdqApi["security"]>>> {
  const types = securityTypesToTry(ticker, type);
  let notFound: DataNotFoundError | undefined;
  for (const kind of types) {
    try {
      return await client.security(forwarded(kind), forwarded(ticker));
    } catch (err) {
      if (!(err instanceof DataNotFoundError)) throw err;
      notFound = err;
    }
  }
  if (types.length === 1 || !notFound) throw notFound;
  throw new DataNotFoundError({
    status: notFound.status,
    message: `${notFound.message} (${show(ticker)} was looked up as ${types.join(", ")}.)`,
  });
}
