// The month's standing in the task pane's Status and in `fdq usage`: one sentence from one module
// (src/api/usage-words.ts), so the two cannot disagree; once the service has refused (429 Limit Exceeded) it
// says so alone, with no units "left" beside "used up". The Status panel is rendered as React renders it.
import { renderToStaticMarkup } from "react-dom/server";
import type { UsageReport } from "../../../src/api";
import { formatUsage } from "../../../src/cli/usage-command";
import { StatusPanel } from "../../../src/taskpane/components/StatusPanel";
import type { QuotaSettingsControl } from "../../../src/taskpane/components/useQuotaSettings";
import { quotaStanding } from "../../../src/taskpane/logic/quota";
import { ServicesContext, type PaneServices } from "../../../src/taskpane/services";

const month = (units: number, exhausted = false, exhaustedOn?: string): UsageReport => ({
  month: "2026-11",
  units,
  byDay: { "2026-11-20": units },
  byDataset: { "metrics/roic": units },
  exhausted,
  ...(exhaustedOn && { exhaustedOn }),
  resetsOn: "2026-12-01",
});

/** The text of the Status panel's "Units this month", rendered. */
function statusUnits(report: UsageReport, plan: number): string {
  const quota: QuotaSettingsControl = { settings: undefined, error: "", save: async () => true };
  const html = renderToStaticMarkup(
    <ServicesContext.Provider value={{} as PaneServices}>
      <StatusPanel
        usage={{
          today: { day: "2026-11-20", requests: 0, cacheHits: 0 },
          planUnits: plan,
          quota: quotaStanding(report, plan),
        }}
        quota={quota}
        onChanged={() => undefined}
      />
    </ServicesContext.Provider>,
  );
  const cell = /<dd data-testid="status-units">([^<]*)<\/dd>/.exec(html);
  if (!cell) throw new Error("no status-units cell");
  return cell[1]!.replace(/&quot;/g, '"');
}

/** The standing line `fdq usage` prints (its second line, indented two spaces). */
const cliLine = (report: UsageReport, plan: number): string =>
  formatUsage(report, plan, "here").split("\n")[1]!.slice(2);

describe("the month's standing (Status and fdq usage)", () => {
  it("before any refusal: used of the plan, the share, what is left, when it resets", () => {
    const text = "223 of 10,000 units used (2.2%), 9,777 left; the quota resets on 2026-12-01.";
    expect(statusUnits(month(223), 10_000)).toBe(text);
    expect(cliLine(month(223), 10_000)).toBe(text);
  });

  it("once the service refused: when, the ledger's count and the reset, and no units left beside it", () => {
    const report = month(223, true, "2026-11-20");
    const text =
      "Used up: the service refused on 2026-11-20 (429 Limit Exceeded); the ledger counted 223 units this month; the quota resets on 2026-12-01.";
    expect(statusUnits(report, 10_000)).toBe(text);
    expect(cliLine(report, 10_000)).toBe(text);
    expect(formatUsage(report, 10_000, "here")).not.toMatch(/left/);
  });

  it("a refusal the pane counted nothing for says so, never '0 of 10,000 units (0 left)'", () => {
    const text =
      "Used up: the service refused on 2026-11-02 (429 Limit Exceeded); the ledger counted 0 units this month; the quota resets on 2026-12-01.";
    expect(statusUnits(month(0, true, "2026-11-02"), 10_000)).toBe(text);
  });

  it("a ledger saved without the refusal's day says 'this month'", () => {
    expect(cliLine(month(1, true), 10_000)).toBe(
      "Used up: the service refused this month (429 Limit Exceeded); the ledger counted 1 unit this month; the quota resets on 2026-12-01.",
    );
  });
});
