import { FormulaSyntaxError, formatFormula, parseFormula } from "../../../src/functions/formula";

function syntaxError(text: string): FormulaSyntaxError {
  try {
    parseFormula(text);
  } catch (err) {
    if (err instanceof FormulaSyntaxError) return err;
    throw err;
  }
  throw new Error(`parsed without error: ${text}`);
}

describe("parseFormula", () => {
  it("parses an FDQ call with string and number literals, with or without =", () => {
    const call = { name: "DATAPOINT", args: ["AAPL", "metrics/roic", "ROIC", 2023] };
    expect(parseFormula('=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)')).toEqual(call);
    expect(parseFormula('  fdq.datapoint( "AAPL" , "metrics/roic", "ROIC" , 2023 ) ')).toEqual(call);
  });

  it("reads TRUE/FALSE in any case, omitted arguments as null and doubled quotes inside text", () => {
    expect(parseFormula('=FDQ.DATASET("AAPL","roic",2023,,,true)')).toEqual({
      name: "DATASET",
      args: ["AAPL", "roic", 2023, null, null, true],
    });
    expect(parseFormula('=FDQ.INFO("a""b",)')).toEqual({ name: "INFO", args: ['a"b', null] });
    expect(parseFormula('=FDQ.SECTOR("TECHNOLOGYSEC","ROIC_AVG",-1.5e0)').args).toEqual([
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
    const call = parseFormula('=fdq.dataset("A""B","roic",2023,,,TRUE)');
    expect(formatFormula(call)).toBe('=FDQ.DATASET("A""B","roic",2023,,,TRUE)');
    expect(parseFormula(formatFormula(call))).toEqual(call);
  });
});
