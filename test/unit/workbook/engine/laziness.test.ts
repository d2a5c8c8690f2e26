// IF, IFS, IFERROR, IFNA, CHOOSE, SWITCH and LET evaluate only what they need, as Excel does.
import { compute, plain, valueOf } from "./compute";

const fdq = (ticker: string): string => `FDQ.DATAPOINT("${ticker}","metrics/roic","ROIC",2023)`;

describe("lazy evaluation", () => {
  it("IF(TRUE,...) never evaluates the other branch, so a function fdq lacks there does not stop it", () => {
    expect(valueOf("IF(TRUE,A1,NOSUCHFUNCTION(1))", { A1: 5 })).toBe(5);
    expect(valueOf("IF(FALSE,NOSUCHFUNCTION(1),A1*2)", { A1: 5 })).toBe(10);
  });

  it("IF fetches only the FDQ calls of the branch taken", () => {
    const { batches } = compute({ sheets: { S: { A1: 1, B1: `=IF(A1>0,${fdq("AAPL")},${fdq("MSFT")})` } } });
    expect(batches.flat().map((c) => c.args[0])).toEqual(["AAPL"]);
  });

  it("IFS, CHOOSE and SWITCH evaluate the chosen value only", () => {
    expect(valueOf('_xlfn.IFS(A1>5,NOSUCH(),A1>0,"pos")', { A1: 1 })).toBe("pos");
    expect(valueOf("CHOOSE(2,NOSUCH(),A1)", { A1: 7 })).toBe(7);
    expect(valueOf('_xlfn.SWITCH(A1,"a",NOSUCH(),"b",2,0)', { A1: "b" })).toBe(2);
    expect(valueOf('_xlfn.SWITCH(A1,"a",1,"z")', { A1: "q" })).toBe("z");
    expect(plain(valueOf('_xlfn.SWITCH(A1,"a",1)', { A1: "q" }))).toEqual({ error: "#N/A" });
  });

  it("IFERROR and IFNA evaluate their fallback only for the error they catch", () => {
    expect(valueOf("IFERROR(A1,NOSUCH())", { A1: 3 })).toBe(3);
    expect(valueOf("_xlfn.IFNA(NA(),4)")).toBe(4);
    expect(plain(valueOf("_xlfn.IFNA(1/0,4)"))).toEqual({ error: "#DIV/0!" });
  });

  it("IF with an omitted branch gives FALSE or 0 as Excel does", () => {
    expect(valueOf("IF(FALSE,1)")).toBe(false);
    expect(valueOf("IF(TRUE,,1)")).toBe(0);
  });
});

describe("lazy evaluation around FDQ answers", () => {
  it("a condition waiting for an FDQ answer fetches neither branch until it is known", () => {
    const { batches } = compute(
      {
        sheets: {
          S: {
            A1: {
              f: `IF(ISNA(${fdq("AAPL")}),${fdq("MSFT")},${fdq("GOOG")})`,
              v: 0,
            },
          },
        },
      },
      (call) =>
        call.args[0] === "AAPL"
          ? ({ ok: true, value: 1 } as never)
          : { ok: false, error: { error: "#N/A", message: "no data" }, noAnswer: false },
    );
    expect(batches.map((b) => b.map((c) => c.args[0]))).toEqual([["AAPL"], ["GOOG"]]);
  });
});

describe("lazy evaluation beside other FDQ calls", () => {
  it("an IF whose condition is known is decided in the first pass even when another call of the formula waits", () => {
    const { batches } = compute(
      { sheets: { S: { A1: 1, B1: { f: `${fdq("AAPL")}+IF(A1>0,${fdq("MSFT")},${fdq("GOOG")})`, v: 0 } } } },
      () => ({ ok: true, value: 1 }) as never,
    );
    expect(batches.map((b) => b.map((c) => c.args[0]))).toEqual([["AAPL", "MSFT"]]);
  });
});
