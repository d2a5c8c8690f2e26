import type { DoubleValue } from "../cell-values";
import { optionalNumberArg } from "./args";
import { forwarded, type FdqApi } from "./client";
import { dayBeforeOf, sourcedSector } from "./sourced";

export interface SectorArgs {
  id?: unknown;
  datapoint?: unknown;
  prior_year?: unknown;
}

/** FDQ.SECTOR: a sector or industry datapoint, for the last fiscal year or prior_year (0..5) years before it. */
export async function sector(
  client: FdqApi,
  args: SectorArgs,
  withSource = false,
): Promise<number | string | DoubleValue> {
  const priorYear = optionalNumberArg(args.prior_year);
  const result = await client.sector({
    id: forwarded(args.id),
    name: forwarded(args.datapoint),
    priorYear: forwarded(priorYear),
  });
  return withSource ? sourcedSector(result, priorYear, dayBeforeOf(client)) : result.value;
}
