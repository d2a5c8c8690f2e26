import { findFdqCalls, formatFormula, readFdqCall, type ReadOptions } from "../../../src/functions/formula";
import { FormulaSyntaxError } from "../../../src/formula/syntax-error";

function syntaxError(text: string, options?: ReadOptions): FormulaSyntaxError {
  try {
    readFdqCall(text, options);
  } catch (err) {
    if (err instanceof FormulaSyntaxError) return err;
    throw err;
  }
  throw new Error(`parsed without error: ${text}`);
}

describe("readFdqCall", () => {
  it("parses an FDQ call with string and number literals, with or without =", () => {
    const call = { name: "DATAPOINT", args: ["AAPL", "metrics/roic", "ROIC", 2023] };
    expect(readFdqCall('=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)')).toEqual(call);
    expect(readFdqCall('  fdq.datapoint( "AAPL" , "metrics/roic", "ROIC" , 2023 ) ')).toEqual(call);
  });

  it("reads TRUE/FALSE in any case, omitted arguments as null and doubled quotes inside text", () => {
    expect(readFdqCall('=FDQ.DATASET("AAPL","roic",2023,,,true)')).toEqual({
      name: "DATASET",
      args: ["AAPL", "roic", 2023, null, null, true],
    });
    expect(readFdqCall('=FDQ.INFO("a""b",)')).toEqual({ name: "INFO", args: ['a"b', null] });
    expect(readFdqCall('=FDQ.SECTOR("TECHNOLOGYSEC","ROIC_AVG",-1.5e0)').args).toEqual([
      "TECHNOLOGYSEC",
      "ROIC_AVG",
      -1.5,
    ]);
  });

  it("refuses what a literal model does not need, naming it", () => {
    expect(syntaxError('=FDQ.DATAPOINT(A1,"roic","ROIC",2023)').message).toBe(
      "Cell references are not supported: A1; use a literal value (at character 16)",
    );
    expect(syntaxError('=FDQ.DATAPOINT("AAPL","roic","ROIC",YEAR(TODAY()))').message).toBe(
      "Nested functions are not supported: YEAR(...); use a literal value (at character 37)",
    );
    expect(syntaxError('=FDQ.DATAPOINT("AAPL","roic","ROIC",2020+3)').message).toBe(
      "Operators are not supported: +; give each argument as one literal (at character 41)",
    );
    expect(syntaxError('=FDQ.RATING("AAPL")*2').message).toBe(
      "Operators are not supported: *; a formula is one FDQ function call (at character 20)",
    );
    expect(syntaxError("=SUM(1,2)").message).toMatch(
      /^Only FDQ functions are supported, not SUM; the FDQ functions are FDQ\.DATAPOINT, /,
    );
    expect(syntaxError('=FDQ.PRICE("AAPL")').message).toMatch(
      /^Unknown function FDQ\.PRICE; the FDQ functions are /,
    );
    expect(syntaxError('=FDQ.INFO("ROIC)').message).toBe(
      'Unterminated text: a closing " is missing (at character 11)',
    );
    expect(syntaxError("=FDQ.INFO(myName)").message).toBe(
      "Names are not supported: myName; use a literal value, TRUE or FALSE (at character 11)",
    );
    expect(syntaxError('=FDQ.INFO({"ROIC"})').message).toBe(
      "Array constants are not supported; use one value per argument (at character 11)",
    );
  });

  it("checks the argument count against the signature", () => {
    expect(syntaxError('=FDQ.RATING("AAPL","overall",1)').message).toBe(
      "FDQ.RATING takes at most 2 arguments, 3 given: FDQ.RATING(ticker, [field]) (at character 2)",
    );
    expect(syntaxError('=FDQ.DATAPOINT("AAPL","roic","ROIC")').message).toBe(
      "FDQ.DATAPOINT needs at least 4 arguments, 3 given: FDQ.DATAPOINT(ticker, dataset, name, year, [quarter], [ttm]) (at character 2)",
    );
  });

  it("formats a call back into a formula that parses to the same call", () => {
    const call = readFdqCall('=fdq.dataset("A""B","roic",2023,,,TRUE)');
    expect(formatFormula(call)).toBe('=FDQ.DATASET("A""B","roic",2023,,,TRUE)');
    expect(readFdqCall(formatFormula(call))).toEqual(call);
  });
});

describe("readFdqCall with references (the task pane's mode)", () => {
  const REFS = { references: true } as const;

  it("returns single-cell references as { ref } nodes: $ anchors, sheet names, quoted sheet names", () => {
    expect(readFdqCall('=FDQ.DATAPOINT($A2,"roic","ROIC",B$1)', REFS)).toEqual({
      name: "DATAPOINT",
      args: [{ ref: "$A2" }, "roic", "ROIC", { ref: "B$1" }],
    });
    expect(
      readFdqCall("=FDQ.DATAPOINT(Sheet2!A1, 'My Sheet'!$C$3, 'It''s'!D4, x_1.y!E5)", REFS).args,
    ).toEqual([{ ref: "Sheet2!A1" }, { ref: "'My Sheet'!$C$3" }, { ref: "'It''s'!D4" }, { ref: "x_1.y!E5" }]);
    // Literals still read as before next to references.
    expect(readFdqCall("=FDQ.RATING(A1,TRUE)", REFS).args).toEqual([{ ref: "A1" }, true]);
  });

  it("returns range references as { ref, range: true }: same sheet, other sheet, quoted sheet, $ anchors", () => {
    expect(readFdqCall('=FDQ.DATAPOINT($A2:$A50,"metrics/roic","ROIC",B$1)', REFS)).toEqual({
      name: "DATAPOINT",
      args: [{ ref: "$A2:$A50", range: true }, "metrics/roic", "ROIC", { ref: "B$1" }],
    });
    expect(
      readFdqCall("=FDQ.DATAPOINT(A2:A10, Data!B$1:D$1, 'My Sheet'!$C$3:$C$4, 'It''s'!D4:e5)", REFS).args,
    ).toEqual([
      { ref: "A2:A10", range: true },
      { ref: "Data!B$1:D$1", range: true },
      { ref: "'My Sheet'!$C$3:$C$4", range: true },
      { ref: "'It''s'!D4:e5", range: true },
    ]);
  });

  it("refuses whole columns and rows, names, nested functions and operators with a clear reason", () => {
    expect(syntaxError("=FDQ.INFO('Data'!B:B)", REFS).message).toBe(
      "Whole columns and rows are not supported: 'Data'!B:B; give the cells, e.g. A2:A100 (at character 11)",
    );
    expect(syntaxError("=FDQ.INFO($A:$C)", REFS).message).toBe(
      "Whole columns and rows are not supported: $A:$C; give the cells, e.g. A2:A100 (at character 11)",
    );
    expect(syntaxError("=FDQ.INFO(A1:B2:C3)", REFS).message).toBe(
      "Not a range: A1:B2:C3; write a range as two cells joined by one colon, e.g. A2:A10 (at character 11)",
    );
    expect(syntaxError("=FDQ.INFO(myName)", REFS).message).toBe(
      "Names are not supported: myName; use a literal value, TRUE or FALSE (at character 11)",
    );
    expect(syntaxError("=FDQ.INFO(TRIM(A1))", REFS).message).toBe(
      "Nested functions are not supported: TRIM(...); use a literal value (at character 11)",
    );
    expect(syntaxError("=FDQ.DATAPOINT(A1,B1,C1,D1+1)", REFS).message).toBe(
      "Operators are not supported: +; give each argument as one literal (at character 27)",
    );
    expect(syntaxError("=FDQ.INFO('My Sheet)", REFS).message).toBe(
      "Unterminated sheet name: a closing ' is missing (at character 11)",
    );
    expect(syntaxError("=FDQ.INFO('My Sheet'!name)", REFS).message).toBe(
      "A cell such as A1 was expected after 'My Sheet'! (at character 11)",
    );
  });

  it("keeps the CLI's default mode refusing references exactly as before", () => {
    expect(syntaxError('=FDQ.DATAPOINT($A2,"roic","ROIC",2023)').message).toBe(
      "Cell references are not supported: $A2; use a literal value (at character 16)",
    );
    expect(syntaxError("=FDQ.INFO(Sheet2!A1)").message).toBe(
      "Cell references are not supported: Sheet2!A1; use a literal value (at character 11)",
    );
    expect(syntaxError("=FDQ.INFO('My Sheet'!A1)").message).toBe(
      `Unexpected character "'" (at character 11)`,
    );
    // `fdq eval` lines have no workbook: a range is refused as any reference is.
    expect(syntaxError('=FDQ.DATAPOINT(A2:A4,"roic","ROIC",2023)').message).toBe(
      "Cell references are not supported: A2:A4; use a literal value (at character 16)",
    );
  });
});

describe("findFdqCalls", () => {
  const calls = (text: string): string[] => findFdqCalls(text).map((s) => text.slice(s.start, s.end));

  it("finds the FDQ calls inside wrapped formulas, with their matching parenthesis", () => {
    expect(calls('=IFERROR(FDQ.DATAPOINT($A2,"roic","ROIC",B$1),0)')).toEqual([
      'FDQ.DATAPOINT($A2,"roic","ROIC",B$1)',
    ]);
    expect(calls('=FDQ.DATAPOINT("A","roic","ROIC",2023)/1e6')).toEqual([
      'FDQ.DATAPOINT("A","roic","ROIC",2023)',
    ]);
    expect(calls('=fdq.rating("AAPL") - FDQ.Sector ("X","Y")')).toEqual([
      'fdq.rating("AAPL")',
      'FDQ.Sector ("X","Y")',
    ]);
  });

  it("skips text and quoted sheet names, and names that only end in FDQ.", () => {
    expect(calls("=CONCAT(\"FDQ.RATING(x)\", 'FDQ.INFO('!A1, MYFDQ.RATING(1))")).toEqual([]);
    expect(calls('=FDQ.INFO("a)b", \'S)\'!A1)&"!"')).toEqual(["FDQ.INFO(\"a)b\", 'S)'!A1)"]);
  });

  it("lets an unclosed call run to the end, and a span parse with the whole formula's positions", () => {
    const text = '=IFERROR(FDQ.INFO("ROIC"';
    expect(calls(text)).toEqual(['FDQ.INFO("ROIC"']);
    const [span] = findFdqCalls('=IFERROR(FDQ.DATAPOINT(A1,"roic","ROIC",YEAR(B1)),0)');
    expect(() =>
      readFdqCall('=IFERROR(FDQ.DATAPOINT(A1,"roic","ROIC",YEAR(B1)),0)', { references: true, span }),
    ).toThrow("Nested functions are not supported: YEAR(...); use a literal value (at character 41)");
    expect(
      readFdqCall('=IFERROR(FDQ.DATAPOINT(A1,"roic","ROIC",2023),0)', {
        references: true,
        span: findFdqCalls('=IFERROR(FDQ.DATAPOINT(A1,"roic","ROIC",2023),0)')[0],
      }),
    ).toEqual({ name: "DATAPOINT", args: [{ ref: "A1" }, "roic", "ROIC", 2023] });
  });
});
