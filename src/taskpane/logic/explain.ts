// "Explain this cell": for each FDQ call of the selected cell's formula, what it resolved to (cell references
// read, arguments read as the functions read them), where its value comes from and the request it makes.
// Answers from the shared client's cache only; it never sends a request of its own. What an explanation
// holds is explanation.ts; a call Excel lifts over a range is explained by explain-lifted.ts.
import {
  DEFAULTS,
  RefreshDayClock,
  type CallOptions,
  type DatapointRequest,
  type DatasetRequest,
  type RequestPlan as ClientPlan,
} from "../../api";
import { findDatapoint, findDataset } from "../../catalog";
import { isFdqFormula, type CellSnapshot } from "../office/workbook";
import { requestsOf, type ServiceRequest } from "../../functions/requests";
import { explainLifted } from "./explain-lifted";
import {
  priceOf,
  type CallBase,
  type CallExplanation,
  type DatapointFacts,
  type DatasetSource,
  type ExplainOptions,
  type Explanation,
  type RequestPlan,
  type SeriesYear,
  type Source,
  type ValueSource,
} from "./explanation";
import { resolveCells, type ResolvedCall } from "./fdq-call";
import { messageOf } from "./message";
import { periodDetail, periodLabel, resolvedText } from "./period";
import { DEFAULT_KEEP_DAYS, saverVerdict, type Serving } from "./saver";

/** How the client serves a planned request's answer, in the terms Explain shows. */
function servingOf(plan: ClientPlan, options: ExplainOptions): Serving {
  const today = options.today ?? new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());
  return {
    policy: plan.policy,
    fetchedOn: plan.cached ? plan.fetchedOn : undefined,
    today,
    keepDays: options.keepDays ?? DEFAULT_KEEP_DAYS,
    verdict: saverVerdict(plan.key, today),
  };
}

function factsOf(request: DatapointRequest, describe: (name: string) => string): DatapointFacts {
  const dataset = findDataset(String(request.dataset));
  const datapointName = String(request.name).toUpperCase();
  return {
    ticker: String(request.ticker).toUpperCase(),
    dataset,
    datasetArg: String(request.dataset),
    datapointName,
    datapoint: dataset ? findDatapoint(dataset, datapointName) : undefined,
    description: describe(datapointName),
  };
}

/**
 * The request a call would make and, when today's cache answers it, what the cache holds. Reading a cached
 * answer (or a remembered "not found") sends no request, so Explain never does.
 */
async function planAndPeek<Cached>(
  plan: () => ClientPlan,
  readCached: (options?: CallOptions) => Promise<Cached>,
  options: ExplainOptions,
  ticker: string,
): Promise<{ planned: RequestPlan; serving?: Serving; source: Source<Cached> }> {
  let planned: RequestPlan;
  let serving: Serving;
  try {
    const p = plan();
    planned = { url: p.url, cached: p.cached, units: p.units };
    serving = servingOf(p, options);
  } catch (err) {
    const invalid = messageOf(err);
    return { planned: { invalid }, source: { kind: "error", message: invalid } };
  }
  // A ticker today's cache knows FDQ does not cover: the cell fails at once, without this request; the cell's
  // message read cache-only (which never sends).
  if (!planned.cached && options.client.coveredToday(ticker) === false) {
    const source = await readCached({ cacheOnly: true }).then(
      (): Source<Cached> => ({ kind: "not-cached" }),
      (err: unknown): Source<Cached> => ({ kind: "error", message: messageOf(err) }),
    );
    return { planned: { ...planned, notCovered: true }, serving, source };
  }
  if (!planned.cached) return { planned, serving, source: { kind: "not-cached" } };
  try {
    return { planned, serving, source: await readCached() };
  } catch (err) {
    return { planned, serving, source: { kind: "error", message: messageOf(err) } };
  }
}

async function explainDatapoint(
  base: CallBase,
  request: DatapointRequest,
  options: ExplainOptions,
): Promise<CallExplanation> {
  const { client, describe } = options;
  const { planned, serving, source } = await planAndPeek<ValueSource>(
    () => client.plan({ kind: "datapoint", request }),
    async (read) => {
      const result = await client.datapoint(request, read);
      const restatement = options.restatementOf?.(result.url, result.value);
      return {
        kind: "cache",
        refreshDay: result.refreshDay,
        record: result.record,
        value: result.value,
        ...(result.resolved && { resolved: result.resolved }),
        ...(restatement && { restatement }),
      };
    },
    options,
    String(request.ticker).toUpperCase(),
  );
  const resolved = source.kind === "cache" ? source.resolved : undefined;
  return {
    ...base,
    kind: "datapoint",
    facts: factsOf(request, describe),
    period: resolved ? resolvedText(resolved, String(request.ticker).toUpperCase()) : periodLabel(request),
    periodDetail: periodDetail(request),
    request: planned,
    ...(serving && { serving }),
    source,
  };
}

function explainSeries(
  base: CallBase,
  requests: readonly DatapointRequest[],
  options: ExplainOptions,
): CallExplanation {
  const { client, describe } = options;
  let years: readonly SeriesYear[] | { invalid: string };
  try {
    years = requests.map((r) => {
      const plan = client.plan({ kind: "datapoint", request: r });
      const notCovered = !plan.cached && client.coveredToday(String(r.ticker).toUpperCase()) === false;
      return {
        period: periodLabel(r),
        url: plan.url,
        cached: plan.cached,
        units: plan.units,
        ...(notCovered && { notCovered: true as const }),
        serving: servingOf(plan, options),
      };
    });
  } catch (err) {
    years = { invalid: messageOf(err) };
  }
  const price = "invalid" in years ? undefined : priceOf(years, false);
  // requestsOf answers at least one request for a SERIES call it does not refuse.
  return { ...base, kind: "series", facts: factsOf(requests[0]!, describe), years, ...(price && { price }) };
}

async function explainDataset(
  base: CallBase,
  request: DatasetRequest,
  options: ExplainOptions,
): Promise<CallExplanation> {
  const { client } = options;
  const { planned, serving, source } = await planAndPeek<DatasetSource>(
    () => client.plan({ kind: "dataset", request }),
    async (read) => {
      const result = await client.dataset(request, read);
      return {
        kind: "cache",
        refreshDay: result.refreshDay,
        rows: result.records.length,
        ...(result.resolved && { resolved: result.resolved }),
      };
    },
    options,
    String(request.ticker).toUpperCase(),
  );
  const resolved = source.kind === "cache" ? source.resolved : undefined;
  const ticker = String(request.ticker).toUpperCase();
  return {
    ...base,
    kind: "dataset",
    ticker,
    dataset: findDataset(String(request.dataset)),
    datasetArg: String(request.dataset),
    period: resolved ? resolvedText(resolved, ticker) : periodLabel(request),
    periodDetail: periodDetail(request),
    request: planned,
    ...(serving && { serving }),
    source,
  };
}

/** What a request of the endpoints the client does not plan asks for, in the pane's words. */
function describeRequest(r: ServiceRequest, index: number): string {
  switch (r.kind) {
    case "ratings":
      return `The component ratings of ${r.ticker.toUpperCase()}.`;
    case "sector": {
      const years = Number(r.request.priorYear ?? 0);
      const when =
        years > 0 ? `${years} fiscal year${years === 1 ? "" : "s"} before the last` : "the last fiscal year";
      return `Datapoint ${r.request.name} of sector or industry ${r.request.id}, for ${when}.`;
    }
    case "coverage":
      return `The list of covered securities of type ${r.type}.`;
    case "security":
      return index === 0
        ? `The coverage record of ${r.ticker.toUpperCase()} among ${r.type} securities.`
        : `If it is not found there: among ${r.type} securities.`;
    case "info":
      return `The service's description and endpoints of datapoint ${r.name}.`;
    case "datapoint":
      return `Datapoint ${r.request.name} of ${r.request.ticker}, ${periodLabel(r.request)}.`;
    case "dataset":
      return `Every datapoint of ${r.request.dataset} for ${r.request.ticker}, ${periodLabel(r.request)}.`;
  }
}

async function explainCall(call: ResolvedCall, options: ExplainOptions): Promise<CallExplanation> {
  if (!call.ok) return { kind: "unplanned", text: call.text, reason: call.reason };
  if (call.kind === "lifted") return explainLifted(call, options, (one) => explainCall(one, options));
  let requests: ServiceRequest[];
  try {
    requests = await requestsOf(call.call);
  } catch (err) {
    return { kind: "unplanned", text: call.text, reason: messageOf(err) };
  }
  const base: CallBase = { text: call.text, inputs: call.inputs };
  const datapoints = requests.flatMap((r) => (r.kind === "datapoint" ? [r.request] : []));
  const [first] = requests;
  if (call.call.name === "DATAPOINT" && datapoints[0]) return explainDatapoint(base, datapoints[0], options);
  if (call.call.name === "SERIES" && datapoints.length > 0) return explainSeries(base, datapoints, options);
  if (first?.kind === "dataset") return explainDataset(base, first.request, options);
  let plans: { cached: boolean; units: number }[];
  try {
    // Checks the arguments as the client will: a refused one makes no request.
    plans = requests.map((r) => options.client.plan(r));
  } catch (err) {
    return { kind: "unplanned", text: call.text, reason: messageOf(err) };
  }
  return {
    ...base,
    kind: "endpoint",
    functionName: `FDQ.${call.call.name}`,
    asks: requests.map(describeRequest),
    price: priceOf(plans, plans.length > 1),
  };
}

export async function explainCell(cell: CellSnapshot, options: ExplainOptions): Promise<Explanation> {
  const { address, formula, value } = cell;
  if (formula === "" && value === "") return { kind: "empty", address };
  if (!isFdqFormula(formula)) return { kind: "not-fdq", address, formula };
  const [resolved] = await resolveCells([cell], options.workbook);
  if (!resolved || resolved.calls.length === 0) return { kind: "not-fdq", address, formula };
  const calls: CallExplanation[] = [];
  for (const call of resolved.calls) calls.push(await explainCall(call, options));
  return { kind: "fdq", address, formula, value, calls };
}
