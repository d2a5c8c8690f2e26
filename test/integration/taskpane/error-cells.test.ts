// "Errors: a list of FDQ cells in error across the workbook, with address, error and reason" — for every
// function, the reason the cell itself shows, found by running the call through the functions' implementation.
import { rating } from "../../../src/functions/impl";
import { findErrorCells } from "../../../src/taskpane/logic/error-cells";
import { useSandboxClient } from "./sandbox-client";
import { fakeWorkbook, type SeedCell } from "../../unit/taskpane/workbook-fake";

const env = useSandboxClient();

/** The reason of a data cell whose ticker FDQ does not cover (this client's hints name no surface). */
const UNCOVERED =
  'FDQ does not cover the ticker "NOSUCH" (no stock of that ticker in its coverage). Check the spelling; the coverage endpoint lists the covered tickers.';

/** The workbook calculated first, unless `asSaved`: then the cells keep the values they were given. */
async function errorsOf(cells: Record<string, SeedCell>, asSaved = false) {
  const workbook = fakeWorkbook(env.client, cells);
  if (!asSaved) await workbook.calculateFull();
  await workbook.settled();
  const before = env.requests();
  const errors = await findErrorCells(await workbook.fdqCells(), { client: env.client, workbook });
  return { errors, sent: env.requests() - before, workbook };
}

describe("cells in error", () => {
  it("lists error cells with the request module's reason, asking once per distinct request", async () => {
    const { errors, sent } = await errorsOf({
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("NOSUCH","metrics/roic","ROIC",2022)',
      "Sheet1!A3": '=FDQ.DATAPOINT("NOSUCH","metrics/roic","ROIC",2022)',
    });
    expect(errors).toEqual([
      { address: "Sheet1!A2", error: "#N/A", reason: UNCOVERED },
      { address: "Sheet1!A3", error: "#N/A", reason: UNCOVERED },
    ]);
    // "Not found" answers are remembered for the refresh day: no new request.
    expect(sent).toBe(0);
  });

  it("gives the reason of every function the way its cell describes it", async () => {
    const { errors } = await errorsOf({
      "Sheet1!A1": '=FDQ.RATING("AAPL","costs")',
      "Sheet1!A2": '=FDQ.INFO("NOSUCHDATAPOINT")',
      "Sheet1!A3": '=FDQ.SECURITY("NOSUCH","name","stock")',
      "Sheet1!A4": '=FDQ.SERIES("NOSUCH","roic","ROIC",2021,2022)',
      "Sheet1!A5": '=FDQ.DATASET("AAPL","reported",2022)',
      "Sheet1!A6": '=FDQ.SECTOR("NOSUCHSEC","ROIC_AVG")',
    });
    const costs = await rating(env.client, { ticker: "AAPL", field: "costs" }).catch((e: Error) => e.message);
    expect(costs).toBe(
      "The costs rating (total annual costs) does not apply to AAPL: it exists for ETFs and mutual funds only.",
    );
    expect(errors).toEqual([
      { address: "Sheet1!A1", error: "#N/A", reason: costs },
      { address: "Sheet1!A2", error: "#N/A", reason: "The requested datapoint was not found." },
      { address: "Sheet1!A3", error: "#N/A", reason: "The requested data was not found." },
      { address: "Sheet1!A4", error: "#N/A", reason: UNCOVERED },
      {
        address: "Sheet1!A5",
        error: "#VALUE!",
        reason:
          "dataset fundamentals/reported has no all-datapoints mode in the spec: ask for one datapoint at a time.",
      },
      { address: "Sheet1!A6", error: "#N/A", reason: "The requested data was not found." },
    ]);
  });

  it("resolves references and wrapped calls, and says when a referenced cell passes an error on", async () => {
    const { errors } = await errorsOf({
      "Inputs!A1": "NOSUCH",
      "Inputs!A2": "#N/A",
      "Sheet1!B1": { formula: '=FDQ.DATAPOINT(Inputs!A1,"roic","ROIC",2022)', value: "#N/A" },
      "Sheet1!B2": { formula: '=FDQ.DATAPOINT(Inputs!A2,"roic","ROIC",2022)', value: "#N/A" },
      "Sheet1!B3": { formula: '=FDQ.DATAPOINT(Inputs!A1,"roic","ROIC",2022)/1e6', value: "#N/A" },
      "Sheet1!B4": { formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)/0', value: "#DIV/0!" },
      "Sheet1!B5": { formula: '=FDQ.DATAPOINT(Inputs!A1:A2,"roic","ROIC",2022)', value: "#N/A" },
      "Sheet1!B6": { formula: '=FDQ.DATASET(Inputs!A1:A2,"roic",2022)', value: "#VALUE!" },
    });
    expect(errors).toEqual([
      { address: "Sheet1!B1", error: "#N/A", reason: UNCOVERED },
      {
        address: "Sheet1!B2",
        error: "#N/A",
        reason:
          "Cannot be planned: ticker refers to Inputs!A2, which shows #N/A: Excel passes that error on without running FDQ.DATAPOINT.",
      },
      { address: "Sheet1!B3", error: "#N/A", reason: `FDQ.DATAPOINT: ${UNCOVERED}` },
      {
        address: "Sheet1!B4",
        error: "#DIV/0!",
        reason:
          "The FDQ call succeeds now: the #DIV/0! comes from the rest of the formula, or refresh to update the cell.",
      },
      // A lifted call's cell shows the first cell of its spill: the call for Inputs!A1.
      { address: "Sheet1!B5", error: "#N/A", reason: UNCOVERED },
      {
        address: "Sheet1!B6",
        error: "#VALUE!",
        reason:
          "Cannot be planned: The cell shows #VALUE! without a request: ticker must be one cell, not a range of " +
          "2 cells (2 rows by 1 column): FDQ.DATASET spills a table of its own, so Excel cannot repeat it for each cell.",
      },
    ]);
  });

  it("says a call that succeeds now needs a refresh, and takes Excel's own reason for #SPILL! and #NAME?", async () => {
    const { errors } = await errorsOf(
      {
        "Sheet1!A1": { formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2022)', value: "#N/A" },
        "Sheet1!A2": { formula: '=FDQ.DATASET("AAPL","roic",2022)', value: "#SPILL!" },
        "Sheet1!A3": { formula: '=FDQ.RATING("AAPL")', value: "#NAME?" },
      },
      true,
    );
    expect(errors).toEqual([
      {
        address: "Sheet1!A1",
        error: "#N/A",
        reason: "The request succeeds now: refresh to update the cell.",
      },
      {
        address: "Sheet1!A2",
        error: "#SPILL!",
        reason: "The result cannot spill: the cells it needs below or to the right are not empty.",
      },
      {
        address: "Sheet1!A3",
        error: "#NAME?",
        reason: "Excel does not know the FDQ functions here: the add-in's functions are not loaded.",
      },
    ]);
  });
});
