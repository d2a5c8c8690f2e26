// The month's quota standing in words: the one sentence `fdq usage` prints and the task pane's Status shows,
// so the two cannot disagree. Once the service has refused (429 Limit Exceeded) the sentence says that alone:
// the units the ledger counted are then no measure of what is left (another computer, another client of the
// key, or the vendor's own count spent the rest), so no "left" is printed beside "used up".
import { LIMIT_EXCEEDED } from "./errors";
import type { UsageReport } from "./usage-ledger";

const NUMBER = new Intl.NumberFormat("en-US");

/** 12,345 */
export const formatUnits = (n: number): string => NUMBER.format(n);

/** "1 unit", "12,345 units" */
export const unitsText = (n: number): string => `${formatUnits(n)} ${n === 1 ? "unit" : "units"}`;

/**
 * "223 of 10,000 units used (2.2%), 9,777 left; the quota resets on 2026-12-01." or, once the service refused,
 * "Used up: the service refused on 2026-11-20 (429 Limit Exceeded); the ledger counted 223 units this month;
 * the quota resets on 2026-12-01."
 */
export function standingText(
  report: Pick<UsageReport, "units" | "exhausted" | "exhaustedOn" | "resetsOn">,
  plan: number,
): string {
  const resets = `the quota resets on ${report.resetsOn}`;
  if (report.exhausted) {
    const when = report.exhaustedOn ? `on ${report.exhaustedOn}` : "this month";
    return `Used up: the service refused ${when} (429 ${LIMIT_EXCEEDED}); the ledger counted ${unitsText(report.units)} this month; ${resets}.`;
  }
  const left = Math.max(0, plan - report.units);
  const share = ((report.units / plan) * 100).toFixed(1);
  return `${formatUnits(report.units)} of ${unitsText(plan)} used (${share}%), ${formatUnits(left)} left; ${resets}.`;
}
