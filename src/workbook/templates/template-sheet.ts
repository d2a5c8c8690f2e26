// What a template is: a named sheet layout, host-neutral data that the task pane writes through Office.js and
// `fdq new` writes into a new .xlsx. A template is built for the analyst's tickers (and, where it asks for them,
// datapoints) into a list of cells: labels, FDQ formulas with relative periods (FY0, FY-1 ... FY-9, so the sheet
// rolls forward by itself), Excel formulas for the rows derived from them, and number formats. Nothing here
// fetches: `fdq refresh` or the pane's refresh fills the FDQ cells afterwards.

/** One cell of a template's sheet. Exactly one of `text`, `number` and `formula` is set. */
export interface TemplateCell {
  /** A1 address on the template's sheet, e.g. "B3". */
  readonly ref: string;
  readonly text?: string;
  readonly number?: number;
  /** The formula as Excel shows it, with its "=" and FDQ calls written FDQ.NAME(...). */
  readonly formula?: string;
  /** Excel number format code, e.g. "0.0%" or "#,##0"; the cell's default (General) when left out. */
  readonly format?: string;
  /** A heading or a label that stands out. */
  readonly bold?: boolean;
}

/** A template built for its parameters: the sheet's suggested name and its cells. */
export interface TemplateSheet {
  /** The template's name (`fdq new NAME`). */
  readonly template: string;
  /** The new sheet's name: at most 31 characters, none of : \ / ? * [ ]. */
  readonly sheetName: string;
  readonly cells: readonly TemplateCell[];
  /** Column widths in characters, from column A. */
  readonly widths: readonly number[];
}

export interface TemplateParams {
  /** Tickers, upper case, checked by `checkTemplateParams`. */
  readonly tickers: readonly string[];
  /** Datapoints of templates that ask for them ("metrics/roic:ROIC"); each template's own choice when empty. */
  readonly datapoints?: readonly string[];
}

export interface TemplateDefinition {
  /** The name `fdq new` takes and `fdq new --list` prints: lower case, words joined by "-". */
  readonly name: string;
  /** What the gallery shows as the template's title. */
  readonly title: string;
  /** One sentence: what the sheet shows. */
  readonly summary: string;
  /** How many tickers it takes. */
  readonly tickers: { readonly min: number; readonly max: number };
  /** Whether the analyst may choose its datapoints (the peer comparison), and the ones it takes otherwise. */
  readonly datapoints?: readonly string[];
  /** The sheet for checked parameters. */
  build(params: TemplateParams): TemplateSheet;
}

/** Why the parameters cannot make the template: said to the analyst as it is. */
export class TemplateParamsError extends Error {
  override name = "TemplateParamsError";
}
