import { runRefresh, type RefreshProgress } from "../../../src/taskpane/logic/refresh-run";
import { useSandboxClient } from "./sandbox-client";
import { fakeWorkbook } from "./workbook-fake";

const env = useSandboxClient();

describe("refresh run", () => {
  it("drops the day's cache, recalculates fully, reports n of m requests and sums up", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, {
      "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
      "Sheet1!A2": '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)',
      "Sheet1!A3": '=FDQ.DATAPOINT("NOSUCH","metrics/roic","ROIC",2022)',
    });
    await workbook.calculateFull();
    await workbook.settled();
    const before = env.requests();
    const progress: RefreshProgress[] = [];
    const summary = await runRefresh({
      workbook,
      client,
      onProgress: (p) => progress.push(p),
      pollMs: 5,
      quietMs: 50,
    });
    await workbook.settled();
    // Billed per datapoint: ROIC and NOPAT of AAPL 2022 are one request each (not every name of roic).
    expect(env.requests() - before).toBe(3);
    expect(workbook.calculations).toBe(2);
    expect(progress[0]).toEqual({ done: 0, total: 3, errors: 0 });
    expect(progress[progress.length - 1]).toEqual({ done: 3, total: 3, errors: 1 });
    expect(summary).toMatchObject({ cells: 3, requestsSent: 3, failedRequests: 1, errorCells: 1 });
  });
});
