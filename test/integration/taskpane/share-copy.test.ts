// Share as values in the pane: the plan lists every FDQ cell with its period, refresh day and source; the copy
// is built from the workbook's file by the package writer and opened as a new workbook.
import type { ShareCopyRequest } from "../../../src/workbook/share/fdq-sources";
import { planShare, shareAsValues } from "../../../src/taskpane/logic/share-copy";
import { useSandboxClient, today } from "./sandbox-client";
import { fakeWorkbook } from "../../unit/taskpane/workbook-fake";

const env = useSandboxClient();

describe("Share as values", () => {
  it("plans the FDQ sources sheet: formula, value, period, refresh day and the request without the key", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, {
      "Model!B2": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Model!B3": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022,2)',
      "Model!C1": "label",
    });
    await workbook.calculateFull();
    await workbook.settled();
    const plan = await planShare(workbook, client);
    const value = workbook.cells.get("Model!B2")!.value;
    expect(plan.rows).toEqual([
      ["Sheet", "Cell", "Formula", "Value", "Period", "Refresh day", "Source"],
      [
        "Model",
        "B2",
        '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
        value,
        "FY2022",
        today(),
        "GET /metrics/roic/AAPL?datapoint=ROIC&year=2022",
      ],
      [
        "Model",
        "B3",
        '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022,2)',
        workbook.cells.get("Model!B3")!.value,
        "Q2 FY2022",
        today(),
        "GET /metrics/roic/AAPL?datapoint=ROIC&year=2022&quarter=2",
      ],
    ]);
    expect(JSON.stringify(plan)).not.toContain(env.sandbox.demoKey);
  });

  it("hands the workbook's bytes, the cells and the sheet to the writer and opens what it answers", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
    });
    const plan = await planShare(workbook, undefined);
    const file = new Uint8Array([1, 2, 3]);
    const opened: Uint8Array[] = [];
    const asked: ShareCopyRequest[] = [];
    await shareAsValues(
      plan,
      { fileBytes: async () => file, openCopy: async (bytes) => void opened.push(bytes) },
      { writeShareCopy: async (request) => (asked.push(request), new Uint8Array([9])) },
    );
    expect(asked).toEqual([
      { bytes: file, cells: plan.cells, sourcesSheet: { name: "FDQ sources", rows: plan.rows } },
    ]);
    expect(opened).toEqual([new Uint8Array([9])]);
  });
});
