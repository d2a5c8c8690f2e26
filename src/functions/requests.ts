// The service requests an FDQ call makes, found by running the call through the functions' own implementation
// (src/functions/impl) against a recorder in place of the client: arguments are read, checked and turned into
// requests exactly as in a cell (numbers typed as text, SERIES year ranges, rating fields...), and a call the
// functions refuse throws the same InvalidArgumentError the cell shows. Nothing is sent.
import { DataNotFoundError, type FdqRequest } from "../api";
import type { FdqCall } from "./formula";
import { evaluateCall, type FdqApi } from "./impl";
import type { ValueOptions } from "./value-options";

/** A request of a call, as the call states it; the client's `plan` names it by its RequestKey. */
export type ServiceRequest = FdqRequest;

/**
 * The recorder answers every request "not found", so FDQ.SECURITY records each type it would try in turn. No
 * function throws DataNotFoundError on its own before it has an answer, so that error ends a recording.
 */
class Recorded extends DataNotFoundError {}

/**
 * The one "not found" every recording ends with: a signal, not a failure anyone reads, so it is made once
 * rather than once per request with a stack trace each (`fdq refresh --changes` records every FDQ cell's calls
 * twice: 20,000 errors in a 10,000-cell refresh, about 0.2 s of its profile).
 */
const RECORDED = new Recorded();

/**
 * The requests `call` makes. `values` are the value options the call runs with: FDQ.CARD asks its chosen key
 * metrics too (Estimate and --budget pass the options in force; without them a card counts coverage and ratings).
 */
export async function requestsOf(call: FdqCall, values?: ValueOptions): Promise<ServiceRequest[]> {
  const recorded: ServiceRequest[] = [];
  const record = (request: ServiceRequest): Promise<never> => {
    recorded.push(request);
    return Promise.reject(RECORDED);
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
    await evaluateCall(recorder, call, (err) => err, values);
  } catch (err) {
    if (!(err instanceof DataNotFoundError)) throw err;
  }
  return recorded;
}
