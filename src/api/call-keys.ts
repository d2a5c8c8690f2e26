// Which RequestKey a call's request names: the client's reads, its plans and its estimates all ask here.
import type { BillingModel } from "./pricing";
import { RequestKey } from "./request-key";
import type { FdqRequest } from "./types";
import {
  checkDatapointRequest,
  checkName,
  checkSecurityType,
  checkSectorRequest,
  checkTicker,
  checkWholeDatasetRequest,
  type DatasetTarget,
} from "./validate";

export type DataKey = ReturnType<typeof RequestKey.data>;

/** The key of a dataset's whole answer, or with `name` of that datapoint's own. */
export function dataKey(t: DatasetTarget, name?: string): DataKey {
  return RequestKey.data(t.dataset, t.ticker, t.year, t.period, name);
}

/** The whole-dataset request that also answers a single-datapoint request, where the spec documents one. */
export function wholeOf(key: RequestKey): RequestKey | undefined {
  const f = key.fields;
  if (f.endpoint !== "data" || f.datapoint === undefined || !f.dataset.allDatapointsMode) return undefined;
  return RequestKey.data(f.dataset, f.ticker, f.year, f.period);
}

/**
 * The key of the request a call's request makes alone, checked as the call checks it (throws its
 * InvalidArgumentError or DataPointNotFoundError). Under `per-request` billing a datapoint of a dataset
 * with an all-datapoints mode asks the whole dataset; under `per-datapoint` it asks itself (the planner
 * joins the names of one recalculation into the whole request when they are all of it).
 */
export function keyOfRequest(request: FdqRequest, billing: BillingModel): RequestKey {
  switch (request.kind) {
    case "datapoint": {
      const t = checkDatapointRequest(request.request);
      return dataKey(t, t.dataset.allDatapointsMode && billing === "per-request" ? undefined : t.name);
    }
    case "dataset":
      return dataKey(checkWholeDatasetRequest(request.request));
    case "ratings":
      return RequestKey.ratings(checkTicker(request.ticker));
    case "sector": {
      const t = checkSectorRequest(request.request);
      return RequestKey.sector(t.id, t.name, t.priorYear);
    }
    case "coverage":
      return RequestKey.coverage(checkSecurityType(request.type));
    case "security":
      return RequestKey.security(checkSecurityType(request.type), checkTicker(request.ticker));
    case "info":
      return RequestKey.metadata(checkName(request.name));
  }
}
