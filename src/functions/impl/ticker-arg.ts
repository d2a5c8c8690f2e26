// A ticker argument may be a data-type value instead of text: an FDQ card (FDQ.CARD's entity) or Microsoft's own
// Stocks data type, which Excel passes to a parameter typed `any` as its JSON when the functions' metadata allows
// custom data (allowCustomDataForDataTypeAny). The ticker is read from it; any other entity is a #VALUE! naming
// the argument, before any request.
import { InvalidArgumentError } from "../../api";
import { FDQ_PROVIDER } from "../cell-values";

type Json = Readonly<Record<string, unknown>>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A property's text: a plain string, or a String cell value's basicValue. */
function propertyText(properties: Json | undefined, name: string): string | undefined {
  if (!properties) return undefined;
  const key = Object.keys(properties).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : properties[key];
  if (typeof value === "string") return value;
  if (isRecord(value) && typeof value.basicValue === "string") return value.basicValue;
  return undefined;
}

/** Microsoft's Stocks cards show "Apple Inc. (XNAS:AAPL)": the ticker after the exchange code. */
const STOCKS_TEXT = /\((?:[A-Z0-9]+):([A-Z0-9.-]+)\)\s*$/;

function entityKind(value: Json): string {
  const text = typeof value.text === "string" ? ` "${value.text}"` : "";
  return `the ${String(value.type)} value${text}`;
}

/**
 * The ticker of a ticker argument: text (or anything not an entity) passes on unchanged for the request module to
 * check; an FDQ card gives its Ticker property; a Stocks entity its "Ticker symbol" property or, where Excel passed
 * no properties, the ticker in its text.
 */
export function tickerArg(value: unknown, argument = "ticker"): unknown {
  if (!isRecord(value)) return value;
  const type = value.type;
  const properties = isRecord(value.properties) ? value.properties : undefined;
  const provider = isRecord(value.provider) ? value.provider.description : undefined;
  let ticker: string | undefined;
  if (type === "Entity" && provider === FDQ_PROVIDER) {
    ticker = propertyText(properties, "Ticker");
  } else if (type === "Entity" || type === "LinkedEntity") {
    ticker = propertyText(properties, "Ticker symbol");
    if (ticker === undefined && typeof value.text === "string") ticker = STOCKS_TEXT.exec(value.text)?.[1];
  }
  if (ticker !== undefined && ticker.trim() !== "") return ticker;
  throw new InvalidArgumentError({
    argument,
    message: `${argument} must be a ticker, an FDQ card (FDQ.CARD) or a Stocks data type (got ${entityKind(value)}, which has no ticker).`,
  });
}

/** Cell-value types whose basicValue is what a plain parameter would have received. */
const BASIC_TYPES = new Set(["Double", "String", "Boolean", "FormattedNumber"]);

/**
 * An argument as a plain value: Excel passes a data-type value (an FDQ number with its source, a formatted number)
 * to a parameter typed `any` as its JSON; its basicValue is the number or text the cell computes as. Entities pass
 * on unchanged (a ticker argument reads them: tickerArg), as does everything else.
 */
export function basicArg(value: unknown): unknown {
  if (!isRecord(value) || typeof value.type !== "string" || !BASIC_TYPES.has(value.type)) return value;
  return value.basicValue;
}
