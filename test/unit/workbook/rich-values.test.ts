// The recalculation's rule for cells holding rich values (a card, a number with its source, a linked data type:
// `vm` in the file), over the model of test/support/xlsx-corpus/rich-values-book.ts.
import { Recalculation } from "../../../src/workbook/refresh/recalculation";
import { openPackage } from "../../../src/workbook/xlsx/package";
import { readWorkbook } from "../../../src/workbook/xlsx/read-model";
import { richValuesBook } from "../../support/xlsx-corpus/rich-values-book";

const { model } = readWorkbook(openPackage(richValuesBook()));

describe("cells holding rich values in a refresh", () => {
  it("reads which cells hold a rich value: formulas marked, constants listed", () => {
    const marked = model.formulas.filter((f) => f.richValue).map((f) => `${f.row}!${f.col}`);
    expect(marked).toEqual(["2!1", "2!3", "3!1"]);
    expect([...(model.sheets[0]?.richValues ?? [])]).toEqual(["1!3"]);
  });

  it("asks nothing for an FDQ cell holding a rich value: only the plain FDQ cell's call is fetched", () => {
    const recalculation = new Recalculation(model);
    const calls = recalculation.pass();
    expect(calls.map((c) => [c.name, ...c.args.map((a) => JSON.stringify(a))])).toEqual([
      ["DATAPOINT", '"AAPL"', '"metrics/roic"', '"ROIC"', "2022"],
    ]);
  });
});
