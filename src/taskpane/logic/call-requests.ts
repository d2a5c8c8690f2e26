// The service requests an FDQ call makes, found by running the call through the functions' own implementation
// (src/functions/impl) against a recorder in place of the client: arguments are read, checked and turned into
// requests exactly as in a cell (numbers typed as text, SERIES year ranges, rating fields...), and a call the
// functions refuse throws the same InvalidArgumentError the cell shows. Nothing is sent.
import {
  DataNotFoundError,
  type DatapointPlan,
  type DatapointRequest,
  type DatasetRequest,
  type SectorRequest,
} from "../../api";
import { checkName, checkSecurityType, checkSectorRequest, checkTicker } from "../../api/validate";
import type { FdqCall } from "../../functions/formula";
import { evaluateCall, type FdqApi } from "../../functions/impl";
import type { PaneClient } from "./pane-client";

export type ServiceRequest =
  | { readonly kind: "datapoint"; readonly request: DatapointRequest }
  | { readonly kind: "dataset"; readonly request: DatasetRequest }
  | { readonly kind: "ratings"; readonly ticker: string }
  | { readonly kind: "sector"; readonly request: SectorRequest }
  | { readonly kind: "coverage"; readonly type: string }
  | { readonly kind: "security"; readonly type: string; readonly ticker: string }
  | { readonly kind: "info"; readonly name: string };

/**
 * The recorder answers every request "not found", so FDQ.SECURITY records each type it would try in turn. No
 * function throws DataNotFoundError on its own before it has an answer, so that error ends a recording.
 */
class Recorded extends DataNotFoundError {}

export async function requestsOf(call: FdqCall): Promise<ServiceRequest[]> {
  const recorded: ServiceRequest[] = [];
  const record = (request: ServiceRequest): Promise<never> => {
    recorded.push(request);
    return Promise.reject(new Recorded());
  };
  const recorder: FdqApi = {
    datapoint: (request) => record({ kind: "datapoint", request }),
    dataset: (request) => record({ kind: "dataset", request }),
    ratings: (ticker) => record({ kind: "ratings", ticker }),
    sector: (request) => record({ kind: "sector", request }),
    coverageList: (type) => record({ kind: "coverage", type }),
    security: (type, ticker) => record({ kind: "security", type, ticker }),
    datapointInfo: (name) => record({ kind: "info", name }),
  };
  try {
    await evaluateCall(recorder, call, (err) => err);
  } catch (err) {
    if (!(err instanceof DataNotFoundError)) throw err;
  }
  return recorded;
}

/** The identity of a request the client does not plan, with its arguments checked as the client checks them. */
function otherRequestKey(r: Exclude<ServiceRequest, { kind: "datapoint" | "dataset" }>): string {
  switch (r.kind) {
    case "ratings":
      return `ratings ${checkTicker(r.ticker)}`;
    case "sector": {
      const t = checkSectorRequest(r.request);
      return `sector ${t.id} ${t.name} ${t.priorYear ?? ""}`;
    }
    case "coverage":
      return `coverage ${checkSecurityType(r.type)}`;
    case "security":
      return `security ${checkSecurityType(r.type)} ${checkTicker(r.ticker)}`;
    case "info":
      return `info ${checkName(r.name)}`;
  }
}

/**
 * What the client would request for a datapoint or dataset request and whether its cache answers it now
 * (`plan`); for the other endpoints, which the client does not plan, the request's identity (`other`).
 * Throws the client's InvalidArgumentError for arguments it refuses.
 */
export async function planRequest(
  client: PaneClient,
  request: ServiceRequest,
): Promise<{ readonly plan: DatapointPlan } | { readonly other: string }> {
  if (request.kind === "datapoint") return { plan: client.planDatapoint(request.request) };
  if (request.kind === "dataset") return { plan: client.planDataset(request.request) };
  return { other: otherRequestKey(request) };
}
