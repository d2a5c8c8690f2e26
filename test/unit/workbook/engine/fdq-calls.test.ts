// FDQ calls inside formulas: recorded and fetched in batches, lifted over ranges element by element, in
// every form Excel saves them.
import type { Outcome } from "../../../../src/functions/evaluate";
import type { FdqCall } from "../../../../src/functions/formula";
import { compute, plain } from "./compute";

const roic: Record<string, number> = { AAPL: 0.3, MSFT: 0.2 };
const answer = (call: FdqCall): Outcome => {
  const v = roic[call.args[0] as string];
  return v === undefined
    ? { ok: false, error: { error: "#N/A", message: "no data" }, noAnswer: false }
    : ({ ok: true, value: v } as Outcome);
};

describe("FDQ calls in formulas", () => {
  it("asks every call of a formula in one batch, and a call reading an FDQ cell in the next", () => {
    const { batches, values } = compute(
      {
        sheets: {
          S: {
            A1: "AAPL",
            B1: { f: 'FDQ.DATAPOINT("AAPL","m","ROIC",2023)-FDQ.DATAPOINT("MSFT","m","ROIC",2023)', v: 0 },
            C1: { f: 'FDQ.DATAPOINT(IF(B1>0,"AAPL","MSFT"),"m","ROE",2023)', v: 0 },
          },
        },
      },
      answer,
    );
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    expect(values.get("S!B1")).toBeCloseTo(0.1, 12);
    expect(values.get("S!C1")).toBe(0.3);
  });

  it("recognises _xldudf_FDQ_, _xludf.FDQ. and lower case", () => {
    const { batches } = compute(
      {
        sheets: {
          S: {
            A1: { f: '_xldudf_FDQ_DATAPOINT("AAPL","m","ROIC",2023)', v: 0 },
            A2: { f: '_xludf.FDQ.DATAPOINT("MSFT","m","ROIC",2023)', v: 0 },
            A3: { f: 'fdq.datapoint("GOOG","m","ROIC",2023)', v: 0 },
          },
        },
      },
      answer,
    );
    expect(batches.flat().map((c) => c.args[0])).toEqual(["AAPL", "MSFT", "GOOG"]);
  });

  it('IFERROR(FDQ.DATAPOINT(A2:A4,...)/1e6,"n/a") computes element by element', () => {
    const { values } = compute(
      {
        sheets: {
          S: {
            A2: "AAPL",
            A3: "GOOG",
            A4: "MSFT",
            B2: { f: 'IFERROR(FDQ.DATAPOINT(A2:A4,"m","ROIC",2023)/1e6,"n/a")', v: 0, array: "B2" },
          },
        },
      },
      answer,
    );
    expect([values.get("S!B2"), values.get("S!B3"), values.get("S!B4")]).toEqual([
      0.3 / 1e6,
      "n/a",
      0.2 / 1e6,
    ]);
  });

  it("an FDQ error keeps its message on the FDQ cell for the report", () => {
    const { values } = compute(
      { sheets: { S: { A1: { f: 'FDQ.DATAPOINT("X","m","ROIC",2023)', v: 0 } } } },
      answer,
    );
    expect(values.get("S!A1")).toMatchObject({ code: "#N/A", message: "no data" });
  });

  it("a call FDQ gave no answer to leaves its cell and its dependents as they are, reported", () => {
    const { results } = compute(
      {
        sheets: {
          S: { A1: { f: 'FDQ.DATAPOINT("AAPL","m","ROIC",2023)', v: 0.1 }, B1: { f: "A1*2", v: 0.2 } },
        },
      },
      () => ({ ok: false, error: { error: "#N/A", message: "Limit Exceeded." }, noAnswer: true }),
    );
    expect(results.map((r) => r.kind)).toEqual(["skipped", "skipped"]);
    expect(results[0]).toMatchObject({ reason: "FDQ gave no answer (Limit Exceeded)" });
  });

  it("an unknown FDQ function is #NAME?", () => {
    const { values } = compute({ sheets: { S: { A1: { f: "FDQ.NOSUCH(1)", v: 0 } } } }, answer);
    expect(plain(values.get("S!A1"))).toEqual({ error: "#NAME?" });
  });
});
