// What makes each frozen cell of a shared copy traceable, for its "FDQ sources" sheet: the period its calls
// ask (src/workbook/call-periods.ts, from the workbook's values), the service requests they make (path and
// query, never the key) and the refresh day the day cache fetched them on. The cache is only read: nothing is
// sent. A request today's cache does not hold leaves the refresh day empty (unknown).
import type { FdqClient, FdqRequest } from "../api";
import { requestsOf } from "../functions/requests";
import { callsOf, requestPeriod } from "../workbook/call-periods";
import type { SourcedCell } from "../workbook/fdq-sources";
import type { FrozenCell } from "../workbook/frozen-formulas";
import { sheetKey, type FormulaCell, type WorkbookModel } from "../workbook/model";
import { addressOfCell } from "../workbook/engine/references";

const joined = (items: readonly (string | undefined)[]): string | undefined => {
  const distinct = [...new Set(items.filter((s): s is string => s !== undefined && s !== ""))];
  return distinct.length > 0 ? distinct.join("; ") : undefined;
};

export async function sourcedCells(
  model: WorkbookModel,
  frozen: readonly FrozenCell[],
  client: FdqClient,
): Promise<SourcedCell[]> {
  await client.ready();
  const byAddress = new Map<string, FormulaCell>(
    model.formulas.map((c) => [`${sheetKey(c.sheet)}!${addressOfCell(c.row, c.col)}`, c]),
  );
  const cells = frozen.flatMap((f) => {
    const cell = byAddress.get(`${sheetKey(f.sheet)}!${f.cell}`);
    return cell ? [cell] : [];
  });
  const calls = callsOf(model, cells);
  const out: SourcedCell[] = [];
  for (const f of frozen) {
    const cell = byAddress.get(`${sheetKey(f.sheet)}!${f.cell}`);
    const requests: FdqRequest[] = [];
    for (const call of cell ? (calls.get(cell) ?? []) : []) {
      requests.push(...(await requestsOf(call).catch(() => [] as FdqRequest[])));
    }
    const plans = requests.flatMap((r) => {
      try {
        return [client.plan(r)];
      } catch {
        return [];
      }
    });
    const days = plans.map((p) => p.fetchedOn);
    const period = joined(requests.map(requestPeriod));
    const source = joined(plans.map((p) => `GET /${p.key.path}`));
    const known = days.length > 0 && days.every((d) => d !== undefined);
    const refreshDay = known ? [...(days as string[])].sort()[0] : undefined;
    out.push({
      ...f,
      ...(period ? { period } : {}),
      ...(source ? { source } : {}),
      ...(refreshDay ? { refreshDay } : {}),
    });
  }
  return out;
}
