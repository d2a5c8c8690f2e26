// Writing service text into cells as text. Range.values reads a text that starts with "=" as a formula
// (and Excel treats a leading "+", "-" or "@" as the start of one too), so a value from the service could
// become a live formula when values are frozen. Excel's own convention keeps it text: a leading apostrophe,
// which the cell does not show.

const FORMULA_START = /^[=+\-@]/;

/** `value` as it must be written with Range.values to stay what it is. */
export function asLiteral(value: unknown): unknown {
  return typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : value;
}

/** Every cell of a values matrix, as `asLiteral` writes it. */
export const literalRows = (rows: readonly (readonly unknown[])[]): unknown[][] =>
  rows.map((row) => row.map(asLiteral));
