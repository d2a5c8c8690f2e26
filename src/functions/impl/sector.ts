import { optionalNumberArg } from "./args";
import { forwarded, type FdqApi } from "./client";

export interface SectorArgs {
  id?: unknown;
  datapoint?: unknown;
  prior_year?: unknown;
}

/** FDQ.SECTOR: a sector or industry datapoint, for the last fiscal year or prior_year (0..5) years before it. */
export async function sector(client: FdqApi, args: SectorArgs): Promise<number | string> {
  const result = await client.sector({
    id: forwarded(args.id),
    name: forwarded(args.datapoint),
    priorYear: forwarded(optionalNumberArg(args.prior_year)),
  });
  return result.value;
}
