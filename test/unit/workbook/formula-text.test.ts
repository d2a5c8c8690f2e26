// How `fdq refresh` turns a stored formula into the formula engine's text (src/workbook/formula-text.ts).
import { engineFormula, EXTERNAL_NAME } from "../../../src/workbook/formula-text";

describe("engineFormula", () => {
  it("reads FDQ calls in both stored forms, behind an add-in's external-book prefix too, in any case", () => {
    expect(engineFormula('=_xldudf_FDQ_DATAPOINT($A2,"metrics/roic","ROIC",B$1)')).toEqual({
      text: 'FDQ.DATAPOINT($A2,"metrics/roic","ROIC",B$1)',
      callsFdq: true,
      external: [],
    });
    expect(engineFormula('[2]!_xldudf_FDQ_RATING("AAPL")').text).toBe('FDQ.RATING("AAPL")');
    expect(engineFormula('ROUND(fdq.info("ROIC"),2)').callsFdq).toBe(true);
    expect(engineFormula("SUM(A1:A3)*MYFDQ.X(1)").callsFdq).toBe(false);
  });

  it("gives an unsigned exponent its sign, outside text only", () => {
    expect(engineFormula('IFERROR(B2/1e6,"1e6")+1.5E3+2e-3+AE6').text).toBe(
      'IFERROR(B2/1e+6,"1e6")+1.5e+3+2e-3+AE6',
    );
  });

  it("stands a name in for each reference to another workbook, quoted or not, and keeps the rest", () => {
    const formula = engineFormula("'[Book 1.xlsx]Sheet 1'!$A$1*[1]Prices!B2:B4+'My Sheet'!B2+[1]!Rate");
    expect(formula.text).toBe(`${EXTERNAL_NAME}0*${EXTERNAL_NAME}1+'My Sheet'!B2+${EXTERNAL_NAME}2`);
    expect(formula.external).toEqual(["'[Book 1.xlsx]Sheet 1'!$A$1", "[1]Prices!B2:B4", "[1]!Rate"]);
    expect(formula.callsFdq).toBe(false);
  });

  it("leaves brackets inside text alone", () => {
    expect(engineFormula('"[1]Prices!B2"&A1')).toEqual({
      text: '"[1]Prices!B2"&A1',
      callsFdq: false,
      external: [],
    });
  });
});
