// How `fdq refresh` reads the FDQ calls of a stored formula (src/workbook/formula-text.ts).
import { engineFormula } from "../../../src/workbook/formula-text";

describe("engineFormula", () => {
  it("reads FDQ calls in every stored form, behind an add-in's external-book prefix too, in any case", () => {
    expect(engineFormula('=_xldudf_FDQ_DATAPOINT($A2,"metrics/roic","ROIC",B$1)')).toEqual({
      text: 'FDQ.DATAPOINT($A2,"metrics/roic","ROIC",B$1)',
      callsFdq: true,
    });
    expect(engineFormula('[2]!_xldudf_FDQ_RATING("AAPL")').text).toBe('FDQ.RATING("AAPL")');
    expect(engineFormula('_xludf.FDQ.DATAPOINT("AAPL")').text).toBe('FDQ.DATAPOINT("AAPL")');
    expect(engineFormula('ROUND(fdq.info("ROIC"),2)')).toEqual({
      text: 'ROUND(FDQ.INFO("ROIC"),2)',
      callsFdq: true,
    });
  });

  it("does not take a name ending in FDQ for an FDQ call", () => {
    expect(engineFormula("SUM(A1:A3)").callsFdq).toBe(false);
    expect(engineFormula("SUM(A1:A3)*MYFDQ.X(1)").callsFdq).toBe(false);
  });

  it("leaves text and quoted sheet names alone", () => {
    expect(engineFormula("\"FDQ.DATAPOINT(1)\"&'FDQ.X('!A1")).toEqual({
      text: "\"FDQ.DATAPOINT(1)\"&'FDQ.X('!A1",
      callsFdq: false,
    });
  });
});
