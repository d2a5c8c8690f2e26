// Excel's data-type values as FDQ returns them: the JSON shapes of Excel.EntityCellValue (a card) and
// Excel.DoubleCellValue (a number with a number format and properties), as Microsoft's pages "Use data types with
// custom functions in Excel" and "Use cards with cell value data types" document them. Written as plain objects
// with the string spellings of the types ("Entity", "Double"): the same code runs in Node (`fdq eval --json`),
// where office.js and its enums do not exist, and test/unit/functions/cell-values.test.ts checks them against
// @types/office-js's Excel.EntityCellValue and Excel.DoubleCellValue.
//
// Property names follow the rules Excel applies to them (and the Office double checks): not empty, no longer than
// MAX_PROPERTY_NAME, and unique without regard to case, since `=A2.roic` and `=A2.ROIC` name one property. A name
// with a space is reached with brackets (`=A2.[Last trade date]`), as on Microsoft's own Stocks cards.

export interface StringValue {
  readonly type: "String";
  readonly basicValue: string;
}

export interface DoubleValue {
  readonly type: "Double";
  readonly basicValue: number;
  readonly numberFormat?: string;
  readonly properties?: Readonly<Record<string, PropertyValue>>;
}

export interface NotAvailableValue {
  readonly type: "Error";
  readonly basicValue: "#N/A";
  readonly errorType: "NotAvailable";
}

export type PropertyValue = StringValue | DoubleValue | NotAvailableValue;

export interface CardSection {
  readonly layout: "List";
  readonly title?: string;
  readonly collapsible?: boolean;
  readonly collapsed?: boolean;
  readonly properties: string[];
}

export interface EntityValue {
  readonly type: "Entity";
  readonly text: string;
  readonly properties: Readonly<Record<string, PropertyValue>>;
  readonly layouts: {
    readonly card: {
      readonly title: { readonly property: string };
      readonly sections: CardSection[];
    };
  };
  readonly provider: { readonly description: string };
}

/** What FDQ returns beyond a plain number or text. */
export type RichValue = EntityValue | DoubleValue;

/** Who provides an FDQ card: shown at the foot of the card, and how an FDQ card is told from other entities. */
export const FDQ_PROVIDER = "FDQ, the Financial Data Query Service";

/** Longest property name FDQ writes (Excel's limit for a name, as for a defined name). */
export const MAX_PROPERTY_NAME = 255;
/** Longest text in a cell or a text property: Excel's 32,767 characters. */
export const MAX_TEXT = 32_767;

export const text = (value: string): StringValue => ({
  type: "String",
  basicValue: value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) : value,
});

export const double = (value: number, numberFormat?: string): DoubleValue =>
  numberFormat === undefined
    ? { type: "Double", basicValue: value }
    : { type: "Double", basicValue: value, numberFormat };

export const notAvailable = (): NotAvailableValue => ({
  type: "Error",
  basicValue: "#N/A",
  errorType: "NotAvailable",
});

/** Why a property name breaks Excel's rules, or undefined when it keeps them. */
export function propertyNameProblem(name: string, taken: Iterable<string>): string | undefined {
  if (name.trim() === "") return "a property name must not be empty";
  if (name.length > MAX_PROPERTY_NAME) return `a property name is at most ${MAX_PROPERTY_NAME} characters`;
  const lower = name.toLowerCase();
  for (const other of taken) {
    if (other.toLowerCase() === lower) return `two properties are named ${name} (names ignore case)`;
  }
  return undefined;
}

/**
 * Properties in the order they are added, each name checked against Excel's rules; a name that is taken (without
 * regard to case) is given its `alternative` (a metric's period: "ROIC FY-1").
 */
export class PropertyList {
  private readonly values: Record<string, PropertyValue> = {};
  private readonly names: string[] = [];

  /** Adds a property and returns the name it got. */
  add(name: string, value: PropertyValue, alternative?: string): string {
    let chosen = name;
    if (propertyNameProblem(chosen, this.names) !== undefined && alternative !== undefined)
      chosen = alternative;
    const problem = propertyNameProblem(chosen, this.names);
    if (problem !== undefined) throw new Error(`FDQ card: ${problem}.`);
    this.names.push(chosen);
    this.values[chosen] = value;
    return chosen;
  }

  get properties(): Readonly<Record<string, PropertyValue>> {
    return this.values;
  }
}

/** Whether a function's result is a data-type value rather than a number or text. */
export function isRichValue(value: unknown): value is RichValue {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const type = (value as { type?: unknown }).type;
  return type === "Entity" || type === "Double";
}

/**
 * What a value shows where only text or a number can be printed (`fdq eval` without --json): a Double's number, an
 * entity's text. (In a formula an entity itself computes as #VALUE!; its properties are what formulas read.)
 */
export function shownValueOf(value: RichValue): number | string {
  return value.type === "Double" ? value.basicValue : value.text;
}

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function propertyProblems(properties: unknown, where: string): string[] {
  if (properties === undefined) return [];
  if (!isObject(properties)) return [`${where}: properties must be an object`];
  const problems: string[] = [];
  const seen: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const problem = propertyNameProblem(name, seen);
    if (problem !== undefined) problems.push(`${where}: ${problem}`);
    seen.push(name);
    problems.push(...cellValueProblems(value, `${where}.${name}`));
  }
  return problems;
}

/**
 * What breaks Microsoft's documented shape of a cell value FDQ returns (an empty list when nothing does): each value
 * has its type and a basicValue of that type, a Double a finite number, text at most MAX_TEXT characters, property
 * names by the rules above, and a card's title and sections naming properties the entity has. `npm run validate`
 * and the unit tests run it over the values the functions build.
 */
export function cellValueProblems(value: unknown, where = "value"): string[] {
  if (!isObject(value)) return [`${where}: a cell value must be an object with a type`];
  switch (value.type) {
    case "String":
      if (typeof value.basicValue !== "string") return [`${where}: a String's basicValue must be text`];
      return value.basicValue.length > MAX_TEXT ? [`${where}: text longer than ${MAX_TEXT} characters`] : [];
    case "Error":
      return typeof value.basicValue === "string" ? [] : [`${where}: an Error's basicValue must be its code`];
    case "Double": {
      const problems: string[] = [];
      if (typeof value.basicValue !== "number" || !Number.isFinite(value.basicValue))
        problems.push(`${where}: a Double's basicValue must be a finite number`);
      if (value.numberFormat !== undefined && typeof value.numberFormat !== "string")
        problems.push(`${where}: a numberFormat must be text`);
      return [...problems, ...propertyProblems(value.properties, where)];
    }
    case "Entity": {
      const problems: string[] = [];
      if (typeof value.text !== "string" || value.text === "" || value.text.length > MAX_TEXT)
        problems.push(`${where}: an Entity's text must be text of 1 to ${MAX_TEXT} characters`);
      problems.push(...propertyProblems(value.properties, where));
      const names = new Set(Object.keys(isObject(value.properties) ? value.properties : {}));
      const card = isObject(value.layouts) && isObject(value.layouts.card) ? value.layouts.card : undefined;
      const title = card && isObject(card.title) ? card.title.property : undefined;
      if (typeof title === "string" && !names.has(title))
        problems.push(`${where}: the card's title names no property (${title})`);
      const sections = card && Array.isArray(card.sections) ? (card.sections as unknown[]) : [];
      for (const section of sections) {
        const listed = isObject(section) && Array.isArray(section.properties) ? section.properties : [];
        for (const name of listed)
          if (typeof name !== "string" || !names.has(name))
            problems.push(`${where}: a card section names no property (${String(name)})`);
      }
      return problems;
    }
    default:
      return [`${where}: unknown cell value type ${String(value.type)}`];
  }
}
