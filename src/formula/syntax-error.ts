// The one error a formula that cannot be read throws, whoever reads it: the Excel lexer and parser (lexer.ts,
// parser.ts) for `fdq refresh`'s formula engine, and the FDQ-call reader over them (src/functions/formula.ts) for
// `fdq eval`, the task pane and the estimate.

export class FormulaSyntaxError extends Error {
  /** 0-based index in the formula text where the problem was found. */
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.name = "FormulaSyntaxError";
    this.position = position;
  }
}
