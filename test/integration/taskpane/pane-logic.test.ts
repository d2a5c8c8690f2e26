import { FdqClient } from "../../../src/api";
import { startSandbox } from "../../../src/sandbox";
import {
  CANCELLED_MESSAGE,
  cellProgress,
  runRefresh,
  type RefreshProgress,
} from "../../../src/taskpane/logic/refresh-run";
import { useSandboxClient, today } from "./sandbox-client";
import { fakeWorkbook } from "../../unit/taskpane/workbook-fake";

const env = useSandboxClient();

const ROIC = '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)';
const NOPAT = '=FDQ.DATAPOINT("AAPL","metrics/roic","NOPAT",2022)';
const MSFT = '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022)';
const NOSUCH = '=FDQ.DATAPOINT("NOSUCH","metrics/roic","ROIC",2022)';
const timing = { pollMs: 5, quietMs: 50 };

describe("refresh run", () => {
  it("drops the day's cache, recalculates fully, reports n of m requests and sums up", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, { "Sheet1!A1": ROIC, "Sheet1!A2": NOPAT, "Sheet1!A3": NOSUCH });
    await workbook.calculateFull();
    await workbook.settled();
    const before = env.requests();
    const progress: RefreshProgress[] = [];
    const summary = await runRefresh({ workbook, client, onProgress: (p) => progress.push(p), ...timing });
    await workbook.settled();
    // Billed per datapoint: ROIC and NOPAT of AAPL 2022 are one request each (not every name of roic), after
    // the day's stock coverage list (dropped with the day's cache, asked again); the list does not list NOSUCH,
    // which sends nothing more. The estimate counts NOSUCH's request, which the list then spares.
    expect(env.requests() - before).toBe(3);
    expect(workbook.calculations).toBe(2);
    expect(progress[0]).toMatchObject({ done: 0, total: 4, errors: 0, unitsSpent: 0 });
    expect(progress[progress.length - 1]).toMatchObject({
      done: 3,
      total: 3,
      errors: 0,
      unitsSpent: 3,
      cells: { total: 3, done: 2, pending: 0, failed: 1 },
    });
    expect(summary).toMatchObject({
      scope: "workbook",
      cells: 3,
      requestsSent: 3,
      failedRequests: 0,
      errorCells: 1,
      unitsSpent: 3,
      cancelled: false,
    });
  });

  it("reports each refreshed cell's change: restated with its relative change, new value, now an error", async () => {
    const { client } = env;
    const value = (await client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 }))
      .value as number;
    const workbook = fakeWorkbook(client, {
      "Sheet1!A1": { formula: ROIC, value: value * 2 },
      "Sheet1!A2": { formula: NOPAT, value: "#N/A" },
      "Sheet1!A3": { formula: NOSUCH, value: 7 },
      "Sheet1!A4": { formula: MSFT, value: "" },
    });
    const msft = (await client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022 }))
      .value;
    workbook.cells.get("Sheet1!A4")!.value = msft as number;
    const summary = await runRefresh({ workbook, client, ...timing });
    expect(summary.changes.map((c) => [c.cell, c.kind, c.relativeChange])).toEqual([
      ["A1", "restated", -0.5],
      ["A2", "new value", null],
      ["A3", "now an error", null],
    ]);
    expect(summary.changes[0]).toMatchObject({ sheet: "Sheet1", formula: ROIC, old: value * 2, new: value });
  });

  it("refreshes the active sheet only: forgets its cells' answers, enters their formulas again, sends theirs", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, { "Sheet1!A1": ROIC, "Model!B2": MSFT, "Model!B3": NOPAT });
    await workbook.calculateFull();
    await workbook.settled();
    workbook.selected = "Model!B2";
    const before = env.requests();
    const summary = await runRefresh({ workbook, client, scope: "sheet", today: today(), ...timing });
    await workbook.settled();
    // MSFT ROIC and AAPL NOPAT again; AAPL ROIC of Sheet1 stays answered from the cache, not re-run.
    expect(env.requests() - before).toBe(2);
    expect(workbook.calculations).toBe(1);
    expect(summary).toMatchObject({ scope: "sheet", cells: 2, requestsSent: 2 });
    expect(
      client.plan({
        kind: "datapoint",
        request: { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 },
      }).cached,
    ).toBe(true);
  });

  it("refreshes only the cells in error, and only those from an older refresh day", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, {
      "Sheet1!A1": ROIC,
      "Sheet1!A2": { formula: MSFT, value: "#N/A" },
      "Sheet1!A3": { formula: NOPAT, value: 0.5 },
    });
    // A1 shows today's answer (Excel computed it from today's cache); A2 shows an error; A3's answer is not in
    // today's cache: its value is from an older refresh day.
    const aapl = await client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 });
    workbook.cells.get("Sheet1!A1")!.value = aapl.value;
    const errors = await runRefresh({ workbook, client, scope: "errors", today: today(), ...timing });
    expect(errors).toMatchObject({ scope: "errors", cells: 1, requestsSent: 1 });
    expect(errors.changes.map((c) => [c.cell, c.kind])).toEqual([["A2", "new value"]]);
    const stale = await runRefresh({ workbook, client, scope: "stale", today: today(), ...timing });
    expect(stale).toMatchObject({ scope: "stale", cells: 1, requestsSent: 1 });
    expect(stale.changes.map((c) => c.cell)).toEqual(["A3"]);
  });

  it("counts a cell as stale when today's cache answers it with another value than it shows", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, {
      "Sheet1!A1": { formula: ROIC, value: 12345 },
      "Sheet1!A2": { formula: MSFT, value: "" },
    });
    await client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 });
    const msft = await client.datapoint({ ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022 });
    workbook.cells.get("Sheet1!A2")!.value = msft.value;
    // Both answers are today's; A1 still shows a value computed on an earlier day.
    const stale = await runRefresh({ workbook, client, scope: "stale", today: today(), ...timing });
    expect(stale).toMatchObject({ scope: "stale", cells: 1 });
    expect(stale.changes.map((c) => c.cell)).toEqual(["A1"]);
  });

  it("Cancel stops new requests at once: cells answered keep their values, the others are not sent", async () => {
    const slow = await startSandbox({ latencyMs: 300 });
    const client = new FdqClient({ baseUrl: slow.baseUrl, apiKey: slow.demoKey, concurrency: 1 });
    try {
      const cells: Record<string, string> = {};
      [2018, 2019, 2020, 2021, 2022].forEach((year, i) => {
        cells[`Sheet1!A${i + 1}`] = `=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${year})`;
      });
      const workbook = fakeWorkbook(client, cells);
      const controller = new AbortController();
      const sent = slow.stats().requests;
      const summary = await runRefresh({
        workbook,
        client,
        signal: controller.signal,
        ...timing,
        // The first answer is in: cancel.
        onProgress: (p) => p.done >= 1 && controller.abort(),
      });
      await workbook.settled();
      // The day's coverage list is answered first; then the values answered before the cancel.
      const answered = slow.stats().requests - sent - 1;
      expect(answered).toBeLessThan(5);
      expect(summary.cancelled).toBe(true);
      expect(summary.cancelledRequests).toBe(5 - answered);
      expect(summary.failedRequests).toBe(0);
      const values = [...workbook.cells.values()].map((c) => c.value);
      expect(values.filter((v) => typeof v === "number")).toHaveLength(answered);
      expect(values.filter((v) => v === "#N/A")).toHaveLength(5 - answered);
      // After the run, requests go out again.
      await expect(
        client.datapoint({ ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2022 }),
      ).resolves.toBeDefined();
      expect(CANCELLED_MESSAGE).toMatch(/^Refresh cancelled before this request was sent/);
    } finally {
      await client.close();
      await slow.close();
    }
  });

  it("counts cells done, pending (calculating or not yet entered) and failed", () => {
    const values = new Map<string, string | number>([
      ["S!A1", 1],
      ["S!A2", "#BUSY!"],
      ["S!A3", "#N/A"],
    ]);
    expect(cellProgress(values, 5, 2)).toEqual({ total: 5, done: 1, pending: 3, failed: 1 });
  });
});

describe("the refresh's request counter: n of m, ending at what was sent", () => {
  /** A refresh of `workbook` with every progress it reported, and the requests the sandbox answered. */
  async function counted(
    workbook: ReturnType<typeof fakeWorkbook>,
    options: Partial<Parameters<typeof runRefresh>[0]> = {},
    sandbox: { stats(): { requests: number } } = env.sandbox,
  ) {
    const progress: RefreshProgress[] = [];
    const before = sandbox.stats().requests;
    const summary = await runRefresh({
      workbook,
      client: env.client,
      onProgress: (p) => progress.push(p),
      ...timing,
      ...options,
    });
    await workbook.settled();
    const last = progress[progress.length - 1]!;
    // Never more done than expected, and the end is n of n: the requests sent.
    for (const p of progress) expect(p.done).toBeLessThanOrEqual(p.total);
    expect(last.total).toBe(last.done);
    return { progress, last, summary, sent: sandbox.stats().requests - before };
  }

  it("an uncovered ticker: 0 of 4 before the list, 3 once the list has spared its request, 3 of 3 at the end", async () => {
    const slow = await startSandbox({ latencyMs: 150 });
    const client = new FdqClient({ baseUrl: slow.baseUrl, apiKey: slow.demoKey });
    try {
      const workbook = fakeWorkbook(client, { "Sheet1!A1": ROIC, "Sheet1!A2": NOPAT, "Sheet1!A3": NOSUCH });
      const { progress, last, sent } = await counted(workbook, { client }, slow);
      expect(progress[0]).toMatchObject({ done: 0, total: 4 });
      // The list is answered first (1 done); the two values are still in flight, and NOSUCH's is not expected.
      expect(progress).toContainEqual(expect.objectContaining({ done: 1, total: 3 }));
      expect(last).toMatchObject({ done: 3, total: 3, errors: 0, unitsSpent: 3 });
      expect(sent).toBe(3);
    } finally {
      await client.close();
      await slow.close();
    }
  });

  it("covered tickers: the estimate is what is sent (the list and each value)", async () => {
    const workbook = fakeWorkbook(env.client, { "Sheet1!A1": ROIC, "Sheet1!A2": MSFT });
    const { progress, last, sent } = await counted(workbook);
    expect(progress[0]).toMatchObject({ done: 0, total: 3 });
    expect(last).toMatchObject({ done: 3, total: 3, errors: 0 });
    expect(sent).toBe(3);
  });

  it("a day already cached (the new-day refresh keeps the cache): 0 of 0, nothing sent", async () => {
    const workbook = fakeWorkbook(env.client, { "Sheet1!A1": ROIC, "Sheet1!A2": NOSUCH });
    await workbook.calculateFull();
    await workbook.settled();
    const { progress, last, sent } = await counted(workbook, { keepCache: true });
    expect(progress.every((p) => p.total === 0 && p.done === 0)).toBe(true);
    expect(last).toMatchObject({ done: 0, total: 0 });
    expect(sent).toBe(0);
  });

  it("the coverage list already cached: an uncovered ticker is not counted, n of n throughout", async () => {
    const { client } = env;
    const workbook = fakeWorkbook(client, { "Sheet1!A1": ROIC, "Sheet1!A2": NOSUCH, "Model!B2": MSFT });
    await workbook.calculateFull();
    await workbook.settled();
    workbook.selected = "Model!B2";
    const sheet = await counted(workbook, { scope: "sheet", today: today() });
    expect(sheet.progress.map((p) => p.total)).toEqual(sheet.progress.map(() => 1));
    expect(sheet.sent).toBe(1);
    // The new-day refresh of the whole workbook, keeping the cache: MSFT's value again, nothing for NOSUCH.
    client.forget([
      { kind: "datapoint", request: { ticker: "MSFT", dataset: "roic", name: "ROIC", year: 2022 } },
    ]);
    const day = await counted(workbook, { keepCache: true });
    expect(day.progress.map((p) => p.total)).toEqual(day.progress.map(() => 1));
    expect(day.last).toMatchObject({ done: 1, total: 1 });
    expect(day.sent).toBe(1);
  });

  it("refreshing an uncovered ticker's cell asks its list again: counted with its value, which the list spares", async () => {
    const workbook = fakeWorkbook(env.client, { "Sheet1!A1": ROIC, "Sheet1!A2": NOSUCH });
    await workbook.calculateFull();
    await workbook.settled();
    const errors = await counted(workbook, { scope: "errors", today: today() });
    expect(errors.progress[0]).toMatchObject({ done: 0, total: 2 });
    expect(errors.last).toMatchObject({ done: 1, total: 1, cells: { failed: 1 } });
    expect(errors.sent).toBe(1);
  });

  it("a cell failing: its request counts as done, and as an error", async () => {
    const workbook = fakeWorkbook(env.client, {
      "Sheet1!A1": ROIC,
      "Sheet1!A2": '=FDQ.DATAPOINT("NFLX","metrics/roic","ROIC",2008)',
    });
    const { progress, last, sent } = await counted(workbook);
    expect(progress[0]).toMatchObject({ done: 0, total: 3 });
    expect(last).toMatchObject({ done: 3, total: 3, errors: 1, cells: { failed: 1 } });
    expect(sent).toBe(3);
  });
});
