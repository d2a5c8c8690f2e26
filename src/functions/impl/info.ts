import { InvalidArgumentError } from "../../api";
import { choiceArg, requireText, show } from "./args";
import type { FdqApi } from "./client";

export interface InfoArgs {
  name?: unknown;
  field?: unknown;
}

export const INFO_FIELDS = ["description", "endpoints"] as const;

/** FDQ.INFO: a datapoint's description (default) or the endpoints it appears in. */
export async function info(client: FdqApi, args: InfoArgs): Promise<string> {
  const key = choiceArg(args.field, "field") ?? "description";
  const field = INFO_FIELDS.find((f) => f === key);
  if (!field) {
    throw new InvalidArgumentError({
      argument: "field",
      message: `field must be description or endpoints (got ${show(args.field)}).`,
    });
  }
  const { data } = await client.datapointInfo(requireText(args.name, "name"));
  return data[field];
}
