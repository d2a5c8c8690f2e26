// call-requests.ts is the one decider of a call's request: what a call sends is what `keyOf` and `plan` say it
// sends, for every endpoint and billing model, and a datapoint call's choice between its own request and its
// dataset's whole one follows the cache, the flights and the billing in that order.
import {
  checkDatapointRequest,
  type DatapointRequest,
  type FdqClient,
  type FdqRequest,
} from "../../../src/api";
import { findDataset } from "../../../src/catalog";
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
  const datapointsOf = (fake: FakeFetch): string[] =>
    fake.seen
      .map((s) => s.url)
      .filter((u) => u.pathname.startsWith("/v1/metrics/") || u.pathname.startsWith("/v1/fundamentals/"))
      .map((u) => u.searchParams.get("datapoint") ?? "whole");

  it("reads a cached whole dataset first, whatever the billing", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-datapoint" });
    await client.dataset({ ticker: "AAPL", dataset: "metrics/roic", year: 2023 });
    expect((await client.datapoint(ROIC)).source).toBe("cache");
    expect(datapointsOf(fake)).toEqual(["whole"]);
    await client.close();
  });

  it("reads its own cached answer next", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-datapoint" });
    await client.datapoint(ROIC);
    expect((await client.datapoint(ROIC)).source).toBe("cache");
    expect(datapointsOf(fake)).toEqual(["ROIC"]);
    await client.close();
  });

  it("asks its own request where the dataset has no all-datapoints mode", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-request" });
    await client.datapoint({ ...ROIC, dataset: "fundamentals/reported", name: "ACCOUNTS_PAYABLE" });
    expect(datapointsOf(fake)).toEqual(["ACCOUNTS_PAYABLE"]);
    await client.close();
  });

  it("per-request billing: asks the whole dataset, and the calls of its window join it", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-request" });
    const [a, b] = await Promise.all([client.datapoint(ROIC), client.datapoint({ ...ROIC, name: "NOPAT" })]);
    expect(datapointsOf(fake)).toEqual(["whole"]);
    expect([a.joined, b.joined]).toEqual([undefined, true]);
    await client.close();
  });

  it("per-datapoint billing: joins the whole request already in flight", async () => {
    const fake = new FakeFetch();
    fake.latencyMs = 20;
    const client = makeClient(fake, { billing: "per-datapoint" });
    await client.ready();
    const whole = client.dataset({ ticker: "AAPL", dataset: "metrics/roic", year: 2023 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const one = await client.datapoint(ROIC);
    await whole;
    expect(datapointsOf(fake)).toEqual(["whole"]);
    expect(one.joined).toBe(true);
    await client.close();
  });

  it("per-datapoint billing: the gathered calls share the whole request when they ask every name, else ask their own", async () => {
    const fake = new FakeFetch();
    const client = makeClient(fake, { billing: "per-datapoint", coalesceWindowMs: 5 });
    const names = findDataset("metrics/roic")!.datapoints.map((d) => d.name);
    await Promise.all(names.map((name) => client.datapoint({ ...ROIC, name })));
    expect(datapointsOf(fake)).toEqual(["whole"]);
    await Promise.all(names.slice(0, 2).map((name) => client.datapoint({ ...ROIC, year: 2022, name })));
    expect(datapointsOf(fake).slice(1).sort()).toEqual(names.slice(0, 2).sort());
    await client.close();
  });
});

describe("a datapoint call's arguments checked again", () => {
  type Check = (req: DatapointRequest) => unknown;
  /** The check of a module loaded afresh, with nothing kept from the calls before. */
  const freshCheck = (): Check => {
    let check: Check | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, nothing kept
      check = (require("../../../src/api/call-requests") as { checkDatapointRequest: Check })
        .checkDatapointRequest;
    });
    return check!;
  };
  const outcome = (check: Check, req: DatapointRequest): unknown => {
    try {
      return { target: check(req) };
    } catch (error) {
      const e = error as { name: string; argument?: string; message: string };
      return { name: e.name, argument: e.argument, message: e.message };
    }
  };
  const GOOD: DatapointRequest[] = [
    ROIC,
    { ticker: " aapl ", dataset: "roic", name: "roic ", year: 2023 },
    { ticker: "MSFT", dataset: "metrics/roic", name: "ROIC", year: 2021, quarter: 2 },
    { ticker: "MSFT", dataset: "metrics/roic", name: "ROIC", year: 2021, ttm: 2, quarter: null },
  ];

  it("a check asked again answers what a fresh check answers", () => {
    for (const req of GOOD) checkDatapointRequest(req);
    const fresh = freshCheck();
    for (const req of GOOD) {
      const again = checkDatapointRequest(req);
      expect(again).toEqual(fresh(req));
      expect(again).toEqual(checkDatapointRequest({ ...req }));
    }
    expect(checkDatapointRequest(GOOD[1]!)).toEqual({
      dataset: findDataset("metrics/roic"),
      ticker: "AAPL",
      name: "ROIC",
      year: 2023,
      period: { kind: "annual", n: 5 },
    });
  });

  it("a bad argument after good ones with the same other arguments gets its own exact message", () => {
    for (const req of GOOD) checkDatapointRequest(req);
    const bad: DatapointRequest[] = [
      { ...ROIC, ticker: "" },
      { ...ROIC, ticker: "..", name: "NOPE" },
      { ...ROIC, dataset: "roicc" },
      { ...ROIC, name: "ROICC" },
      { ...ROIC, name: "" },
      { ...ROIC, year: 2023.5 },
      { ...ROIC, year: "FY9" },
      { ...ROIC, quarter: 5 },
      { ...ROIC, quarter: 1, ttm: 1 },
    ];
    const fresh = freshCheck();
    for (const req of bad) {
      const expected = outcome(fresh, req);
      expect(expected).toMatchObject({ name: "InvalidArgumentError" });
      expect(outcome(checkDatapointRequest, req)).toEqual(expected);
    }
    expect(outcome(checkDatapointRequest, bad[0]!)).toEqual({
      name: "InvalidArgumentError",
      argument: "ticker",
      message: 'ticker must be non-empty text (got "").',
    });
    expect(outcome(checkDatapointRequest, bad[1]!)).toMatchObject({ argument: "ticker" });
    expect(outcome(checkDatapointRequest, bad[7]!)).toMatchObject({
      message: "quarter must be 1, 2, 3 or 4 (got 5).",
    });
  });
});
