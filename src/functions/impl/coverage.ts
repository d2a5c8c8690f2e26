import { COVERAGE_FIELDS, DataNotFoundError } from "../../api";
import { forwarded, type FdqApi } from "./client";

export interface CoverageArgs {
  type?: unknown;
}

/** FDQ.COVERAGE: the covered securities of a type, with a header row of the field names. */
export async function coverage(client: FdqApi, args: CoverageArgs): Promise<string[][]> {
  const { data } = await client.coverageList(forwarded(args.type));
  if (data.length === 0) throw new DataNotFoundError();
  return [[...COVERAGE_FIELDS], ...data.map((item) => COVERAGE_FIELDS.map((c) => item[c]))];
}
