import { isDeepStrictEqual } from "node:util";
import {
  findFdqCalls,
  formatFormula,
  readFdqCall,
  readFdqCallParsed,
  type ReadOptions,
} from "../../../src/functions/formula";
import { FUNCTION_NAMES, FUNCTION_SPECS, isFunctionName } from "../../../src/functions/signatures";
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

/** A seeded generator (mulberry32): the same formulas on every run. */
function randomSource(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Formulas shaped like a model's cells, most of them the usual literal call, many with one tricky piece:
 * doubled quotes, spaces, case, _xldudf_ prefixes, nested calls, references, booleans, signs and exponents.
 */
function generatedFormulas(count: number): string[] {
  const random = randomSource(31);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chance = (p: number): boolean => random() < p;
  const textChars = [
    "a",
    "Z",
    "roic",
    "/",
    '""',
    " ",
    ",",
    ")",
    "(",
    "1",
    "é",
    "\u00a0",
    "'",
    "#",
    "FDQ.INFO(",
  ];
  const text = (): string => {
    let inner = "";
    for (let n = Math.floor(random() * 4); n > 0; n--) inner += pick(textChars);
    return chance(0.03) ? `"${inner}` : chance(0.03) ? `"a"b"` : `"${inner}"`;
  };
  const numbers = [
    "2023",
    "-1.5",
    "+3",
    ".5",
    "1.",
    "1e5",
    "1E-3",
    "-0",
    "-.25",
    "00012",
    "1e",
    "--5",
    "- 5",
    "5%",
    "1:3",
    "2023abc",
    "1.2.3",
    "+-1",
    "-TRUE",
    "1e+2",
    "12345678901234567890",
  ];
  const words = [
    "TRUE",
    "true",
    "FaLsE",
    "false",
    "TRUE1",
    "FALſE",
    "truE(1)",
    "TRUE ",
    "A1",
    "$B$2",
    "Sheet1!A1",
    "A1:B2",
    "'My Sheet'!C3",
    "name",
    "YEAR(2023)",
    "(1)",
    "{1,2}",
    "#N/A",
    "B:B",
    "@A1",
    "_xlfn.X",
    "TRUE%",
  ];
  const argument = (): string => {
    const r = random();
    const core = r < 0.45 ? text() : r < 0.75 ? pick(numbers) : r < 0.85 ? "" : pick(words);
    return chance(0.08) ? ` ${core}` : chance(0.05) ? `${core} ` : core;
  };
  const formulas: string[] = [];
  for (let f = 0; f < count; f++) {
    const bare = chance(0.9) ? pick(FUNCTION_NAMES) : pick(["UNKNOWN", "DATAPOINTS", ""]);
    const written = pick(["FDQ.", "fdq.", "Fdq.", "_xldudf_FDQ.", "FDQ .", "SUM"]);
    const word = chance(0.6) ? `FDQ.${bare}` : `${written}${bare}`;
    const name = chance(0.2) ? word.toLowerCase() : word;
    // Mostly as many arguments as the function takes, sometimes any number.
    const most = isFunctionName(bare) && chance(0.8) ? FUNCTION_SPECS[bare].parameters.length : 7;
    const args: string[] = [];
    for (let n = Math.floor(random() * (most + 1)); n > 0; n--) args.push(argument());
    const separator = chance(0.95) ? "," : pick([";", " ", ",,", ", "]);
    const open = chance(0.95) ? "(" : pick([" (", "  (", ""]);
    const close = chance(0.9) ? ")" : pick(["", ") ", "))", ")*2", ")x", ") -1", ")%"]);
    const head = chance(0.85) ? "=" : pick(["", " =", "= ", "  ", "==", "\t="]);
    formulas.push(`${head}${name}${open}${args.join(separator)}${close}`);
  }
  return formulas;
}

/** What reading gives: the call, or the error's message and position. */
function reading(read: () => unknown): unknown {
  try {
    return { call: read() };
  } catch (err) {
    if (!(err instanceof FormulaSyntaxError)) throw err;
    return { message: err.message, position: err.position };
  }
}

describe("readFdqCall's one pass over a call of literals", () => {
  it("gives exactly what the Excel parser's tree gives, call or error, on 6,000 generated formulas", () => {
    let calls = 0;
    const differing: unknown[] = [];
    for (const formula of generatedFormulas(6_000)) {
      for (const options of [{}, { references: true }] as ReadOptions[]) {
        const expected = reading(() => readFdqCallParsed(formula, options));
        const read = reading(() => readFdqCall(formula, options));
        // Strict: a -0 is not a 0.
        if (!isDeepStrictEqual(read, expected)) differing.push({ formula, read, expected });
        if (typeof expected === "object" && expected !== null && "call" in expected) calls++;
      }
    }
    expect(differing.slice(0, 5)).toEqual([]);
    // Both outcomes are well represented: thousands of calls read, thousands refused.
    expect(calls).toBeGreaterThan(1_200);
    expect(calls).toBeLessThan(10_000);
  });

  it("gives the parser's result for a call found inside a larger formula (span)", () => {
    const differing: unknown[] = [];
    for (const formula of generatedFormulas(2_000)) {
      const wrapped = `=IFERROR(${formula.replace(/^\s*=?/, "")},0)`;
      const [span] = findFdqCalls(wrapped);
      if (!span) continue;
      const options = { references: true, span };
      const read = reading(() => readFdqCall(wrapped, options));
      const expected = reading(() => readFdqCallParsed(wrapped, options));
      if (!isDeepStrictEqual(read, expected)) differing.push({ wrapped, read, expected });
    }
    expect(differing.slice(0, 5)).toEqual([]);
  });

  it("keeps a negative zero and the text between doubled quotes as the parser reads them", () => {
    expect(Object.is(readFdqCall("=FDQ.INFO(-0)").args[0], -0)).toBe(true);
    expect(readFdqCall('=FDQ.DATASET("say ""hi""",-.5e1,TRUE,,FALSE)').args).toEqual([
      'say "hi"',
      -5,
      true,
      null,
      false,
    ]);
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
