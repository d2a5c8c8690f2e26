// The task pane's Calculation card in the built pane against the Office double and the sandbox: the shared
// client's calls counted live during a plain recalculation (cells entered, no refresh), the settled moment,
// failures by reason, and "Retry the failed ones" calculating the cells in error again. The service's answers
// are held at a proxy while the view is read; a second proxy answers one ticker 500 (a transient failure)
// until the test lets it through. Screenshots at the pane's width, light and dark.
import { copyFileSync, mkdirSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROUND_QUIET_MS } from "../../src/api";
import { holdAnswers, type HeldService } from "../support/held-answers";
import { ARTIFACTS, PANE_WIDTH, callDouble, eventually, settled, useBrowserRig } from "./harness";
import { tab, waitAnswered } from "./pane-steps";

jest.setTimeout(90_000);

const rig = useBrowserRig();
const DOCS_IMAGES = join(__dirname, "../../docs/images");
const ROIC = (ticker: string, year: number, dataset = "metrics/roic"): string =>
  `=FDQ.DATAPOINT("${ticker}","${dataset}","ROIC",${year})`;

/** A proxy in front of `upstream` that answers 500 to every GET naming `ticker` while `failing`. */
async function failTicker(
  upstream: HeldService,
  ticker: string,
): Promise<{ baseUrl: string; demoKey: string; failing: boolean; close(): Promise<void> }> {
  const target = new URL(upstream.baseUrl);
  const state = { failing: true };
  const server: Server = createServer((req, res) => {
    if (state.failing && req.method === "GET" && req.url?.includes(`/${ticker}`)) {
      res.writeHead(500, { "content-type": "application/json", "access-control-allow-origin": "*" });
      return void res.end(JSON.stringify({ message: "Internal Server Error" }));
    }
    const out = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, "")}`,
    demoKey: upstream.demoKey,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  });
}

/**
 * Waits until the card says its round settled at least ROUND_QUIET_MS ago, so the next call starts a round of
 * its own (the card's data-settled-at).
 */
const quiet = (page: Page): Promise<unknown> =>
  page.waitForFunction((gap) => {
    const at = document.querySelector('[data-testid="health-panel"]')?.getAttribute("data-settled-at");
    return at !== null && at !== undefined && Date.now() - Number(at) >= gap;
  }, ROUND_QUIET_MS);

const text = (page: Page, id: string): Promise<string | null> => page.getByTestId(id).textContent();
const counts = (page: Page): Promise<(string | null)[]> =>
  Promise.all(
    ["health-pending", "health-cached", "health-fetched", "health-joined", "health-failed"].map((id) =>
      text(page, id),
    ),
  );

/** The Calculation card in both themes, at the pane's width (copied to docs/images with FDQ_UPDATE_DOCS=1). */
async function photograph(page: Page, name: string): Promise<void> {
  for (const theme of ["light", "dark"] as const) {
    await callDouble(page, "setTheme", theme);
    await page.waitForFunction(
      (background) => getComputedStyle(document.querySelector("main")!).backgroundColor === background,
      theme === "dark" ? "rgb(31, 31, 31)" : "rgb(250, 250, 250)",
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PANE_WIDTH);
    const file = join(ARTIFACTS, `health-${name}-${theme}.png`);
    await page.locator('[aria-label="Calculation"]').screenshot({ path: file });
    if (process.env.FDQ_UPDATE_DOCS === "1") {
      mkdirSync(DOCS_IMAGES, { recursive: true });
      copyFileSync(file, join(DOCS_IMAGES, `health-${name}-${theme}.png`));
    }
  }
}

describe("the Calculation card", () => {
  it("counts a recalculation's calls live, says when they settled, and retries the transient failures, in the light and dark themes (screenshots)", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const held = await holdAnswers(rig.sandbox);
    const flaky = await failTicker(held, "MSFT");
    try {
      const pane = await rig.openConnected({ service: flaky });
      const { context, page } = pane;
      // The pane's own load of the datapoint descriptions is a call too: its round ends before the cells'.
      await waitAnswered(pane, `${flaky.baseUrl}/datapoint`);
      await tab(page, "Workbook");
      await quiet(page);

      // A plain recalculation (cells entered): six years of AAPL, one of them twice, a dataset that does not
      // exist (a bad argument: no request) and MSFT, which the proxy answers 500 for now.
      held.hold();
      const cells: Record<string, string> = {};
      for (let i = 1; i <= 6; i++) cells[`Sheet1!A${i}`] = ROIC("AAPL", 2012 + i);
      cells["Sheet1!A7"] = ROIC("AAPL", 2013);
      cells["Sheet1!A8"] = ROIC("AAPL", 2020, "metrics/nosuch");
      cells["Sheet1!A9"] = ROIC("MSFT", 2020);
      await callDouble(page, "seed", cells);
      // The day's stock coverage list comes first, and the values wait for it: let it through.
      await held.waitHeld(1);
      held.releaseHeld();
      await held.waitHeld(6);
      // During: AAPL's six requests wait at the proxy (six open at most), MSFT's waits its turn behind them;
      // the bad argument failed at once, without a request.
      expect(await eventually(() => text(page, "health-state"), "Calculating", 10_000)).toBe("Calculating");
      expect(await counts(page)).toEqual(["8", "0", "0", "0", "1"]);
      expect(await text(page, "health-summary")).toBe("Calculating: 8 FDQ calls pending, 1 settled.");
      await expect(page.getByTestId("health-retry").count()).resolves.toBe(0);
      await photograph(page, "running");

      // After: every call settled; the 2013 cell entered twice joined the first one's request.
      held.open();
      await settled(page);
      expect(await eventually(() => text(page, "health-state"), "Settled", 10_000)).toBe("Settled");
      expect(await counts(page)).toEqual(["0", "0", "6", "1", "2"]);
      expect(await text(page, "health-summary")).toMatch(
        /^Settled at \d\d:\d\d:\d\d: all 9 FDQ calls answered or failed in \d+\.\d s\.$/,
      );
      expect(await page.getByTestId("health-failure").allTextContents()).toEqual([
        "1 bad argument",
        "1 service unavailable (5xx) (worth retrying)",
      ]);
      expect(await text(page, "health-retry")).toBe("Retry the failed ones (1)");
      await photograph(page, "settled");

      // Retry: the two cells in error are calculated again; the bad argument fails again without a request,
      // MSFT is fetched now; nothing else is asked.
      flaky.failing = false;
      await quiet(page);
      const before = held.received();
      await page.getByTestId("health-retry").click();
      const said = "Asked Excel to calculate 2 FDQ cells in error again.";
      expect(await eventually(() => text(page, "health-message"), said, 10_000)).toBe(said);
      await settled(page);
      expect(await eventually(() => counts(page).then((c) => c.join(" ")), "0 0 1 0 1", 10_000)).toBe(
        "0 0 1 0 1",
      );
      expect(held.received() - before).toBe(1);
      expect(await page.getByTestId("health-failure").allTextContents()).toEqual(["1 bad argument"]);
      await expect(page.getByTestId("health-retry").count()).resolves.toBe(0);
      expect(await callDouble<{ value: unknown }>(page, "cell", "Sheet1!A9")).toMatchObject({
        value: expect.any(Number),
      });
      await context.close();
    } finally {
      await flaky.close();
      await held.close();
    }
  });
});
