// call-keys.ts is the one decider of a call's request: what a call sends is what `keyOf` and `plan` say it
// sends, for every endpoint and billing model, and a datapoint call's choice between its own request and its
// dataset's whole one follows the cache, the flights and the billing in that order.
import type { FdqClient, FdqRequest } from "../../../src/api";
import type { CacheValue } from "../../../src/api/cache-codec";
import {
  chooseDatapointKey,
  datapointKeys,
  type DataKey,
  type DatapointChoice,
  type DatapointLook,
} from "../../../src/api/call-keys";
import { checkDatapointRequest } from "../../../src/api/validate";
import { BASE_URL, FakeFetch, json, makeClient } from "./fake-fetch";

const ROIC = { ticker: "AAPL", dataset: "metrics/roic", name: "ROIC", year: 2023 };
const REQUESTS: FdqRequest[] = [
  { kind: "datapoint", request: ROIC },
  {
    kind: "datapoint",
    request: { ticker: "AAPL", dataset: "fundamentals/reported", name: "ACCOUNTS_PAYABLE", year: 2023 },
  },
  { kind: "dataset", request: { ticker: "AAPL", dataset: "metrics/roic", year: 2023 } },
  { kind: "ratings", ticker: "aapl" },
  { kind: "sector", request: { id: "TECHNOLOGYSEC", name: "ROIC_AVG", priorYear: 3 } },
  { kind: "coverage", type: "stock" },
  { kind: "security", type: "stock", ticker: "msft" },
  { kind: "info", name: "roic" },
];

/** Makes the call of `request` on `client` (its answer does not matter here). */
function call(client: FdqClient, r: FdqRequest): Promise<unknown> {
  switch (r.kind) {
    case "datapoint":
      return client.datapoint(r.request);
    case "dataset":
      return client.dataset(r.request);
    case "ratings":
      return client.ratings(r.ticker);
    case "sector":
      return client.sector(r.request);
    case "coverage":
      return client.coverageList(r.type);
    case "security":
      return client.security(r.type, r.ticker);
    case "info":
      return client.datapointInfo(r.name);
  }
}

describe("the key of a call", () => {
  for (const billing of ["per-datapoint", "per-request"] as const) {
    const label = (r: FdqRequest): string =>
      r.kind === "datapoint" ? `datapoint of ${r.request.dataset}` : r.kind;
    it.each(REQUESTS.map((r) => [label(r), billing, r] as const))(
      "%s under %s billing: the call sends what keyOf and plan name",
      async (_kind, _billing, request) => {
        const fake = new FakeFetch((url) => (url.pathname.includes("/metrics/") ? "default" : json(404, {})));
        const client = makeClient(fake, { billing, retry: { attempts: 1 }, coalesceWindowMs: 0 });
        await client.ready();
        const planned = client.plan(request);
        await call(client, request).catch(() => undefined);
        expect(fake.seen.map((s) => s.url.href)).toEqual([planned.url]);
        expect(planned.url).toBe(client.keyOf(request).url(BASE_URL));
        await client.close();
      },
    );
  }
});

describe("a datapoint call's choice between its own request and the whole dataset's", () => {
  const keys = datapointKeys(checkDatapointRequest(ROIC));
  const whole = keys.whole!;
  const value = { kind: "json", data: 1 } as unknown as CacheValue;
  const look = (o: Partial<DatapointLook> & { cachedKeys?: DataKey[] }): DatapointLook => ({
    billing: "per-datapoint",
    cached: (key) => (o.cachedKeys?.includes(key) ? value : undefined),
    inFlight: () => false,
    gather: () => Promise.reject(new Error("not gathered")),
    ...o,
  });

  it("reads a cached whole dataset first, whatever the billing, without a promise", () => {
    const chosen = chooseDatapointKey(keys, look({ cachedKeys: [whole, keys.single] }));
    expect(chosen).toEqual({ key: whole, cached: value, windowed: false });
  });

  it("reads its own cached answer next", () => {
    expect(chooseDatapointKey(keys, look({ cachedKeys: [keys.single] }))).toEqual({
      key: keys.single,
      cached: value,
      windowed: false,
    });
  });

  it("asks its own request where the dataset has no all-datapoints mode", () => {
    const own = datapointKeys(
      checkDatapointRequest({ ...ROIC, dataset: "fundamentals/reported", name: "ACCOUNTS_PAYABLE" }),
    );
    expect(own.whole).toBeUndefined();
    expect(chooseDatapointKey(own, look({ billing: "per-request" }))).toMatchObject({ key: own.single });
  });

  it("per-request billing: asks the whole dataset after the window", () => {
    expect(chooseDatapointKey(keys, look({ billing: "per-request" }))).toEqual({
      key: whole,
      cached: undefined,
      windowed: true,
    });
  });

  it("per-datapoint billing: joins the whole request already in flight", () => {
    expect(chooseDatapointKey(keys, look({ inFlight: (k) => k === whole }))).toMatchObject({ key: whole });
  });

  it("per-datapoint billing: asks what the gathered calls settle on", async () => {
    const chosen = chooseDatapointKey(keys, look({ gather: async () => keys.single }));
    expect(chosen).toBeInstanceOf(Promise);
    expect(await chosen).toEqual({ key: keys.single, cached: undefined, windowed: false });
  });

  it("per-datapoint billing: a whole answer that arrived while gathering serves the call", async () => {
    const arrived: DataKey[] = [];
    const chosen = (await chooseDatapointKey(
      keys,
      look({
        cached: (key) => (arrived.includes(key) ? value : undefined),
        gather: async () => {
          arrived.push(whole);
          return keys.single;
        },
      }),
    )) as DatapointChoice;
    expect(chosen).toEqual({ key: whole, cached: value, windowed: false });
  });
});
