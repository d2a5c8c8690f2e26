// The pane's health view (logic/call-health.ts, components/HealthPanel.tsx): the request module's counts in
// words, the settled moment, and "Retry the failed ones" offered only for transient failures; the retry
// enters again the FDQ cells in error in the Office double (test/support/office-double).
import { renderToStaticMarkup } from "react-dom/server";
import type { CallHealth } from "../../../src/api";
import { HealthPanel } from "../../../src/taskpane/components/HealthPanel";
import {
  clockTime,
  healthView,
  offersRetry,
  retryFailedCells,
} from "../../../src/taskpane/logic/call-health";
import { excelWorkbook } from "../../../src/taskpane/office/workbook";
import { ServicesContext, type PaneServices } from "../../../src/taskpane/services";
import { loadNodeDouble } from "../../support/office-double/node-double";

const START = Date.UTC(2026, 10, 28, 9, 0, 0);
const round = (h: Partial<CallHealth>): CallHealth => ({
  round: 1,
  pending: 0,
  cached: 0,
  fetched: 0,
  joined: 0,
  failed: {},
  startedAt: START,
  ...h,
});

describe("the health view", () => {
  it("says no call yet before the first round, and offers no retry", () => {
    const view = healthView(undefined);
    expect(view).toMatchObject({
      state: "idle",
      pending: 0,
      failed: 0,
      summary: "No FDQ call since the pane opened.",
    });
    expect(offersRetry(view)).toBe(false);
  });

  it("is running while any call is pending, and offers no retry then", () => {
    const view = healthView(round({ pending: 12, cached: 30, fetched: 2, failed: { NetworkError: 1 } }));
    expect(view.state).toBe("running");
    expect(view.summary).toBe("Calculating: 12 FDQ calls pending, 33 settled.");
    expect(offersRetry(view)).toBe(false);
  });

  it("is settled once none is pending, with the moment and the round's duration", () => {
    const settledAt = START + 2_500;
    const view = healthView(round({ cached: 40, fetched: 3, joined: 7, settledAt }));
    expect(view.state).toBe("settled");
    expect(view.settledAt).toBe(settledAt);
    expect(view.summary).toBe(
      `Settled at ${clockTime(settledAt)}: all 50 FDQ calls answered or failed in 2.5 s.`,
    );
  });

  it("lists failures by reason, most frequent first, and counts the retryable ones", () => {
    const view = healthView(
      round({
        settledAt: START + 1,
        failed: { QuotaExhaustedError: 1, NetworkError: 4, DataPointNotFoundError: 2, TimeoutError: 1 },
      }),
    );
    expect(view.failures.map((f) => [f.words, f.count, f.retryable])).toEqual([
      ["could not reach the service", 4, true],
      ["does not exist", 2, false],
      ["monthly quota used up", 1, false],
      ["timed out", 1, true],
    ]);
    expect([view.failed, view.retryable]).toEqual([8, 5]);
    expect(offersRetry(view)).toBe(true);
  });

  it("offers no retry when every failure is lasting: quota, does not exist, bad argument", () => {
    const view = healthView(
      round({
        settledAt: START + 1,
        failed: { QuotaExhaustedError: 1, DataNotFoundError: 2, InvalidArgumentError: 3 },
      }),
    );
    expect(view.retryable).toBe(0);
    expect(offersRetry(view)).toBe(false);
  });
});

describe("HealthPanel", () => {
  const render = (health: CallHealth | undefined): string =>
    renderToStaticMarkup(
      <ServicesContext.Provider value={{} as PaneServices}>
        <HealthPanel read={() => health} />
      </ServicesContext.Provider>,
    );
  const text = (html: string, id: string): string | undefined =>
    new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];

  it("shows each count, the state and the failures by reason", () => {
    const html = render(round({ pending: 2, cached: 5, fetched: 1, joined: 3, failed: { TimeoutError: 1 } }));
    expect(
      [
        "health-state",
        "health-pending",
        "health-cached",
        "health-fetched",
        "health-joined",
        "health-failed",
      ].map((id) => text(html, id)),
    ).toEqual(["Calculating", "2", "5", "1", "3", "1"]);
    expect(html).toContain("1 timed out (worth retrying)");
    expect(html).not.toContain('data-testid="health-retry"');
  });

  it("shows the retry button once settled with retryable failures, not for lasting ones", () => {
    const retryable = render(
      round({ settledAt: START + 1, failed: { ServiceUnavailableError: 2, QuotaExhaustedError: 1 } }),
    );
    expect(text(retryable, "health-state")).toBe("Settled");
    expect(retryable).toMatch(/data-testid="health-retry"[^>]*>Retry the failed ones \(2\)</);
    const lasting = render(round({ settledAt: START + 1, failed: { QuotaExhaustedError: 1 } }));
    expect(lasting).not.toContain('data-testid="health-retry"');
  });
});

describe("retry the failed ones, against the Office double", () => {
  it("enters again the formula of each FDQ cell in error and no other cell, forgetting nothing", async () => {
    const office = loadNodeDouble({
      cells: {
        "Model!A1": { formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)', value: "#N/A" },
        "Model!A2": { formula: '=FDQ.DATAPOINT("MSFT","roic","ROIC",2023)', value: 0.25 },
        "Model!A3": { formula: '=FDQ.DATAPOINT("IBM","roic","ROIC",2023)', value: "#VALUE!" },
        "Model!A4": { formula: "=1/0", value: "#DIV/0!" },
      },
    });
    const runs: string[] = [];
    office.CustomFunctions.associate("DATAPOINT", (ticker: unknown) => {
      runs.push(String(ticker));
      return 0.1;
    });
    const uninstall = office.install();
    try {
      expect(await retryFailedCells(excelWorkbook())).toBe(2);
      await office.double.settled();
      expect(runs.sort()).toEqual(["AAPL", "IBM"]);
      expect(office.double.cell("Model!A1")).toMatchObject({ value: 0.1 });
      expect(office.double.cell("Model!A3")).toMatchObject({ value: 0.1 });
      expect(office.double.cell("Model!A2")).toMatchObject({ value: 0.25 });
      expect(office.double.cell("Model!A4")).toMatchObject({ formula: "=1/0" });
    } finally {
      uninstall();
    }
  });

  it("enters nothing when no FDQ cell shows an error", async () => {
    const entered: string[][] = [];
    const n = await retryFailedCells({
      fdqCells: async () => [
        { address: "Model!A1", formula: '=FDQ.INFO("ROIC")', value: "Return on invested capital" },
      ],
      reenterFormulas: async (a) => (entered.push([...a]), a.length),
    });
    expect([n, entered]).toEqual([0, []]);
  });
});
