// The one rule for the forms of an FDQ call in a formula (src/functions/formula-repair.ts), which the pane's
// formula doctor, `fdq repair` and `fdq refresh` share.
import { fdqCallHeads, repairFormula } from "../../../src/functions/formula-repair";

const ARGS = '($A2,"metrics/roic","ROIC",B$1)';

describe("fdqCallHeads", () => {
  it("finds a call in each stored and shown form, with its prefix and its name in upper case", () => {
    const forms: [string, string, string][] = [
      [`=FDQ.DATAPOINT${ARGS}`, "", "FDQ.DATAPOINT"],
      [`=_xldudf_FDQ_DATAPOINT${ARGS}`, "", "_xldudf_FDQ_DATAPOINT"],
      [`=_xludf.FDQ.DATAPOINT${ARGS}`, "", "_xludf.FDQ.DATAPOINT"],
      [`=fdq.datapoint${ARGS}`, "", "fdq.datapoint"],
      [`=[2]!_xldudf_FDQ_DATAPOINT${ARGS}`, "[2]!", "_xldudf_FDQ_DATAPOINT"],
      [
        `='C:\\Program Files\\Bloomberg\\BloombergUI.xla'!_xldudf_FDQ_DATAPOINT${ARGS}`,
        "'C:\\Program Files\\Bloomberg\\BloombergUI.xla'!",
        "_xldudf_FDQ_DATAPOINT",
      ],
      [`=BloombergUI.xla!_xldudf_FDQ_DATAPOINT${ARGS}`, "BloombergUI.xla!", "_xldudf_FDQ_DATAPOINT"],
    ];
    for (const [text, prefix, head] of forms) {
      expect(fdqCallHeads(text)).toEqual([
        { start: 1, end: 1 + prefix.length + head.length, name: "DATAPOINT", known: true, prefix, head },
      ]);
    }
  });

  it("finds every call of a larger formula and none inside text, a quoted sheet name or a longer name", () => {
    const text = `=IFERROR([1]!_xldudf_FDQ_RATING("AAPL"),"FDQ.RATING(x)")&'FDQ.X('!A1&MYFDQ.X(1)+fdq.info("ROIC")`;
    expect(fdqCallHeads(text).map((h) => [h.prefix, h.head])).toEqual([
      ["[1]!", "_xldudf_FDQ_RATING"],
      ["", "fdq.info"],
    ]);
  });

  it("marks a name that is not an FDQ function", () => {
    expect(fdqCallHeads("=_xldudf_FDQ_NOSUCH(1)")).toMatchObject([{ name: "NOSUCH", known: false }]);
  });
});

describe("repairFormula", () => {
  const excel = (text: string): string => repairFormula(text, "excel").text;
  const file = (text: string): string => repairFormula(text, "file").text;

  it("rewrites every unrecognised form to FDQ.NAME as Excel shows it, the arguments untouched", () => {
    for (const head of [
      "_xldudf_FDQ_DATAPOINT",
      "_xludf.FDQ.DATAPOINT",
      "fdq.datapoint",
      "Fdq.DataPoint",
      "[2]!_xldudf_FDQ_DATAPOINT",
      "'C:\\Users\\ana\\AppData\\Roaming\\Bloomberg\\BloombergUI.xla'!_xldudf_FDQ_DATAPOINT",
      "BloombergUI.xla!_xldudf_FDQ_DATAPOINT",
      "[3]!FDQ.DATAPOINT",
    ]) {
      expect(repairFormula(`=${head}${ARGS}`, "excel")).toEqual({
        text: `=FDQ.DATAPOINT${ARGS}`,
        changed: true,
        unknown: [],
      });
    }
  });

  it("rewrites every unrecognised form to _xldudf_FDQ_NAME as Excel stores it in a file", () => {
    for (const head of [
      "_xludf.FDQ.DATAPOINT",
      "fdq.datapoint",
      "_xldudf_fdq_datapoint",
      "[2]!_xldudf_FDQ_DATAPOINT",
      "'C:\\x\\BloombergUI.xla'!_xldudf_FDQ_DATAPOINT",
      "[2]!FDQ.DATAPOINT",
    ]) {
      expect(file(`${head}${ARGS}`)).toBe(`_xldudf_FDQ_DATAPOINT${ARGS}`);
    }
  });

  it("leaves a recognised call alone: FDQ.NAME as shown; _xldudf_FDQ_NAME and FDQ.NAME as stored", () => {
    expect(repairFormula(`=FDQ.DATAPOINT${ARGS}`, "excel")).toEqual({
      text: `=FDQ.DATAPOINT${ARGS}`,
      changed: false,
      unknown: [],
    });
    expect(repairFormula(`_xldudf_FDQ_DATAPOINT${ARGS}`, "file").changed).toBe(false);
    expect(repairFormula(`FDQ.DATAPOINT${ARGS}`, "file").changed).toBe(false);
    expect(repairFormula("SUM(A1:A3)", "file").changed).toBe(false);
  });

  it("changes only the heads of a larger formula: other external references, text and spaces stay", () => {
    const text = `=IFERROR([2]!_xldudf_FDQ_SERIES("AAPL", "roic","ROIC",2019,2023)/1e6,"[2]!_xldudf_FDQ_X(")+[1]Prices!B2*_xludf.FDQ.RATING ("MSFT")`;
    expect(excel(text)).toBe(
      `=IFERROR(FDQ.SERIES("AAPL", "roic","ROIC",2019,2023)/1e6,"[2]!_xldudf_FDQ_X(")+[1]Prices!B2*FDQ.RATING ("MSFT")`,
    );
  });

  it("leaves a head whose name is not an FDQ function, and names it", () => {
    expect(repairFormula("[2]!_xldudf_FDQ_NOSUCH(1)+_xludf.FDQ.RATING(2)", "file")).toEqual({
      text: "[2]!_xldudf_FDQ_NOSUCH(1)+_xldudf_FDQ_RATING(2)",
      changed: true,
      unknown: ["[2]!_xldudf_FDQ_NOSUCH"],
    });
  });
});
