// `fdq usage`: this month's quota units of the key's account, as fdq counted them in its cache file (the
// service reports no usage): the total against the plan, by day and by dataset, whether the service has
// answered "Limit Exceeded" this month and when the quota resets. --plan-raised clears a "Limit Exceeded"
// stop, so requests are sent again. Sends no request, except --reset: the same for the account's stop at the
// FDQ gateway at --base-url (POST /usage/reset with the key; docs/gateway.md), then what fdq counted here.
import { formatUnits as count, resetGatewayUsage, standingText, type UsageReport } from "../api";
import { openConnection } from "./connection";
import { EXIT } from "./exit-codes";
import type { UsageOptions } from "./options";

/** Rows of two columns, the numbers right-aligned. */
function table(
  counts: Readonly<Record<string, number>>,
  order: (a: [string, number], b: [string, number]) => number,
): string[] {
  const rows = Object.entries(counts).sort(order);
  if (rows.length === 0) return ["  none"];
  const nameWidth = Math.max(...rows.map(([name]) => name.length));
  const numberWidth = Math.max(...rows.map(([, n]) => count(n).length));
  return rows.map(([name, n]) => `  ${name.padEnd(nameWidth)}  ${count(n).padStart(numberWidth)}`);
}

/** The report as `fdq usage` prints it. `where` says where the count is kept. */
export function formatUsage(report: UsageReport, plan: number, where: string): string {
  const lines = [
    `FDQ quota units of ${report.month} (US Central time), as counted by fdq ${where}:`,
    `  ${standingText(report, plan)}`,
  ];
  if (report.exhausted) {
    lines.push(
      `  fdq sends no request until ${report.resetsOn}. If your plan was raised, run "fdq usage --plan-raised".`,
    );
  }
  lines.push(
    "By day:",
    ...table(report.byDay, ([a], [b]) => a.localeCompare(b)),
    "By dataset:",
    ...table(report.byDataset, ([a, x], [b, y]) => y - x || a.localeCompare(b)),
  );
  return `${lines.join("\n")}\n`;
}

/** `fdq usage --reset`'s request to the gateway, and the sentence that says how it went. */
export async function resetAtGateway(
  baseUrl: string,
  apiKey: string,
): Promise<{ ok: boolean; message: string }> {
  const outcome = await resetGatewayUsage(baseUrl, apiKey);
  if (outcome.ok) {
    return {
      ok: true,
      message: 'fdq: the FDQ gateway lifted the account\'s "Limit Exceeded" stop: requests are sent again.',
    };
  }
  const { url } = outcome;
  const message =
    outcome.problem === "not-a-gateway"
      ? `fdq: --reset: ${url} answered ${outcome.status}: it is not an FDQ gateway that knows this key (give --base-url https://GATEWAY/v1).`
      : outcome.problem === "timeout"
        ? `fdq: --reset: the FDQ gateway at ${url} did not answer within 10 s.`
        : `fdq: --reset: the FDQ gateway at ${url} could not be reached.`;
  return { ok: false, message };
}

export async function runUsage(options: UsageOptions): Promise<number> {
  if (options.reset && options.baseUrl === undefined) {
    process.stderr.write(
      "fdq: --reset lifts the stop at an FDQ gateway: give its --base-url (https://GATEWAY/v1).\n",
    );
    return EXIT.usage.code;
  }
  if (options.reset) {
    const said = await resetAtGateway(options.baseUrl!, options.apiKey ?? "");
    process.stderr.write(`${said.message}\n`);
    if (!said.ok) return EXIT.failure.code;
  }
  const connection = await openConnection(options);
  try {
    const { client, cacheFile } = connection;
    let raised: string | undefined;
    if (options.planRaised || options.reset) {
      const before = await client.usage();
      await client.planRaised();
      raised = before.exhausted
        ? "fdq: noted that the plan was raised: requests are sent again."
        : "fdq: noted that the plan was raised (the quota was not marked as used up).";
    }
    const report = await client.usage();
    if (options.json) {
      if (raised) process.stderr.write(`${raised}\n`);
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      const where = cacheFile ? `in ${cacheFile}` : "in this run only, without a cache file";
      process.stdout.write(`${raised ? `${raised}\n` : ""}${formatUsage(report, options.plan, where)}`);
    }
    return 0;
  } finally {
    await connection.close();
  }
}
