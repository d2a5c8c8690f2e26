// The `endpoints` field of /v1/datapoint records. The sandbox serves dataset paths by default
// (--endpoint-names paths); production serves human names of dataset groups, comma-separated with a trailing
// period, e.g. "Model Data, Adjusted Fundamentals." (production-service.md, fact 15), which --endpoint-names groups imitates.
import { findDataset } from "../catalog";

export type EndpointNames = "paths" | "groups";

/** The group names, in the order a record lists them. */
export const ENDPOINT_GROUPS = [
  "Model Data",
  "Reconciliations",
  "Adjusted Fundamentals",
  "Reported Fundamentals",
  "Sector Data",
] as const;

export type EndpointGroup = (typeof ENDPOINT_GROUPS)[number];

/**
 * metrics/* and screens/* -> Model Data; reconciliation/* -> Reconciliations; fundamentals/adjusted ->
 * Adjusted Fundamentals; fundamentals/reported -> Reported Fundamentals; sector -> Sector Data.
 */
export function endpointGroup(endpoint: string): EndpointGroup {
  if (endpoint === "sector") return "Sector Data";
  if (endpoint === "fundamentals/adjusted") return "Adjusted Fundamentals";
  if (endpoint === "fundamentals/reported") return "Reported Fundamentals";
  const group = findDataset(endpoint)?.group;
  if (group === "reconciliation") return "Reconciliations";
  if (group === "metrics" || group === "screens") return "Model Data";
  throw new Error(`no endpoint group for ${endpoint}`);
}

/** "metrics/roic, fundamentals/adjusted" -> "Model Data, Adjusted Fundamentals." */
export function groupNames(endpoints: string): string {
  const groups = new Set(endpoints.split(", ").map(endpointGroup));
  return `${ENDPOINT_GROUPS.filter((g) => groups.has(g)).join(", ")}.`;
}
