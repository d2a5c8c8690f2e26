// The flags that make the sandbox behave like production (issue 10): --quota and GET /__usage,
// --refresh-window, --restate, --endpoint-names, and /v1/ratings/overall/:ticker. Real HTTP on 127.0.0.1.
import { createHash } from "node:crypto";
import { DATASETS, SPEC_ERRORS, findDataset } from "../../../src/catalog";
import { servedDatapoints } from "../../../src/sandbox/beyond-cutoff";
import { DEMO_API_KEY } from "../../../src/sandbox/demo";
import { datasetValues, quarterErrors, walkErrors, WALK_CASES, WALK_DATASETS } from "./checks";
import { Client, TEST_NOW, close, pool, start, type DataRecord } from "./helpers";

const LIMIT_EXCEEDED = { message: "Limit Exceeded" };
const UNAVAILABLE = { message: "Service Unavailable" };
const tagOf = (key: string): string => createHash("sha256").update(key).digest("hex").slice(0, 8);

/** The sandbox's origin, without /v1. */
const originOf = (c: Client): string => c.sandbox.baseUrl.replace(/\/v1$/, "");

/** GET /__usage (no key) as text and status. */
async function usagePage(c: Client, query = ""): Promise<{ status: number; text: string }> {
  const res = await fetch(`${originOf(c)}/__usage${query}`);
  return { status: res.status, text: await res.text() };
}

/** The raw text of an answer, for byte-for-byte comparisons. */
async function rawText(c: Client, path: string): Promise<string> {
  const res = await fetch(`${c.sandbox.baseUrl}${path}`, { headers: { "x-api-key": c.key } });
  expect([path, res.status]).toEqual([path, 200]);
  return res.text();
}

/** A clock the test moves. */
function movableClock(start: Date): { now: () => Date; set(iso: string): void } {
  let current = start;
  return { now: () => current, set: (iso) => (current = new Date(iso)) };
}

describe("--quota: units per API key (option quota)", () => {
  let c: Client;
  beforeAll(async () => {
    c = await start({ apiKeys: ["second-key"] });
  });
  afterAll(() => c.sandbox.close());

  /** Units the calls cost the client's key. */
  async function cost(client: Client, ...paths: string[]): Promise<number> {
    const before = client.sandbox.usage(client.key);
    for (const path of paths) await client.get(path);
    return client.sandbox.usage(client.key) - before;
  }

  it("a single-datapoint answer costs 1 unit, fundamentals' record object included", async () => {
    expect(await cost(c, "/metrics/roic/AAPL?year=2023&datapoint=NOPAT")).toBe(1);
    expect(await cost(c, "/fundamentals/reported/AAPL?year=2023&datapoint=INCOME_NET")).toBe(1);
  });

  it("an all-datapoints answer costs 1 unit per record it returns (a whole dataset of N records = N units)", async () => {
    for (const d of DATASETS.filter((x) => x.allDatapointsMode)) {
      const path = `/${d.path}/AAPL?year=2023`;
      const before = c.sandbox.usage();
      const records = await c.results<DataRecord[]>(path);
      expect([d.path, records.length]).toEqual([d.path, servedDatapoints(d).length]);
      expect([d.path, c.sandbox.usage() - before]).toEqual([d.path, records.length]);
    }
    // The vendor's own example: a whole screens/traditional year is 24 units (wire-notes 11).
    expect(await cost(c, "/screens/traditional/MSFT?year=2020&ttm=2")).toBe(24);
  });

  it("ratings (component and overall), sector and single-security calls cost 1 unit each", async () => {
    for (const path of [
      "/ratings/component/AAPL",
      "/ratings/overall/AAPL",
      "/sector/TECHNOLOGYSEC?datapoint=REVENUE",
      "/coverage/stock/AAPL",
    ])
      expect([path, await cost(c, path)]).toEqual([path, 1]);
  });

  it("coverage lists and /datapoint metadata cost 1 unit per call, however many records they hold", async () => {
    for (const path of ["/coverage/mf", "/coverage/stock", "/datapoint", "/datapoint/ROIC"])
      expect([path, await cost(c, path)]).toEqual([path, 1]);
  });

  it("errors cost nothing: spec errors, 400s, unknown paths, 405 and an unknown key", async () => {
    expect(
      await cost(
        c,
        "/metrics/roic/AAPL?year=2023&datapoint=NOPE",
        "/metrics/roic/AAPL?datapoint=NOPAT",
        "/metrics/roic/NOSUCH?year=2023",
        "/ratings/component/ENRN:1",
        "/ratings/overall/TECHNOLOGYSEC",
        "/coverage/bond",
        "/sector/TECHNOLOGYSEC?datapoint=REVENUE&prior_year=9",
        "/nowhere",
      ),
    ).toBe(0);
    const before = c.sandbox.usage();
    expect((await c.get("/datapoint/ROIC", { method: "POST" })).status).toBe(405);
    expect((await new Client(c.sandbox, "wrong").get("/datapoint/ROIC")).status).toBe(403);
    expect(c.sandbox.usage()).toBe(before);
  });

  it("a HEAD costs what its GET would; a 200 made malformed by --fault-malformed still costs", async () => {
    const before = c.sandbox.usage();
    const head = await fetch(`${c.sandbox.baseUrl}/screens/traditional/AAPL?year=2023`, {
      method: "HEAD",
      headers: { "x-api-key": c.key },
    });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    expect(c.sandbox.usage() - before).toBe(24);
    const faulty = await start({ faults: { malformedRate: 1 } });
    try {
      const res = await fetch(`${faulty.sandbox.baseUrl}/datapoint/ROIC`, {
        headers: { "x-api-key": faulty.key },
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(() => JSON.parse(text) as unknown).toThrow();
      expect(faulty.sandbox.usage()).toBe(1);
    } finally {
      await faulty.sandbox.close();
    }
  });

  it("units are metered per key", async () => {
    const second = new Client(c.sandbox, "second-key");
    const demoBefore = c.sandbox.usage();
    expect(await cost(second, "/datapoint/ROIC", "/metrics/roic/AAPL?year=2023")).toBe(
      1 + servedDatapoints(findDataset("metrics/roic")!).length,
    );
    expect(c.sandbox.usage()).toBe(demoBefore);
    expect(c.sandbox.usage("second-key")).toBe(1 + servedDatapoints(findDataset("metrics/roic")!).length);
  });

  it("once a key's units reach N, every further request of that key is 429 Limit Exceeded, no Retry-After, no envelope", async () => {
    const q = await start({ quota: 3, apiKeys: ["other-key"] });
    try {
      for (let i = 0; i < 3; i++)
        expect((await q.get("/metrics/roic/AAPL?year=2023&datapoint=ROIC")).status).toBe(200);
      expect(q.sandbox.usage()).toBe(3);
      // Any request of that key, even one that would fail or has no route, answers 429 before any work.
      for (const [path, method] of [
        ["/metrics/roic/AAPL?year=2023&datapoint=ROIC", "GET"],
        ["/datapoint/ROIC", "GET"],
        ["/metrics/roic/AAPL", "GET"],
        ["/nowhere", "GET"],
        ["/datapoint/ROIC", "POST"],
      ] as const) {
        const reply = await q.get(path, { method });
        expect([path, method, reply.status, reply.json]).toEqual([path, method, 429, LIMIT_EXCEEDED]);
        expect(reply.headers.get("retry-after")).toBeNull();
        expect(reply.headers.get("content-type")).toContain("application/json");
      }
      // The refusals cost nothing; another key is still served.
      expect(q.sandbox.usage()).toBe(3);
      expect((await new Client(q.sandbox, "other-key").get("/datapoint/ROIC")).status).toBe(200);
      // An unknown key is still 403, not 429.
      expect((await new Client(q.sandbox, "wrong").get("/datapoint/ROIC")).status).toBe(403);
    } finally {
      await q.sandbox.close();
    }
  });

  it("an answer is served when its key had units left on arrival, so usage can end above the quota", async () => {
    const q = await start({ quota: 5 });
    try {
      expect((await q.get("/datapoint/ROIC")).status).toBe(200);
      expect((await q.get("/screens/traditional/AAPL?year=2023")).status).toBe(200);
      expect(q.sandbox.usage()).toBe(25);
      expect((await q.get("/datapoint/ROIC")).json).toEqual(LIMIT_EXCEEDED);
    } finally {
      await q.sandbox.close();
    }
  });

  it("quota 0 refuses every request of every key", async () => {
    const q = await start({ quota: 0 });
    try {
      const reply = await q.get("/datapoint/ROIC");
      expect([reply.status, reply.json]).toEqual([429, LIMIT_EXCEEDED]);
      expect(q.sandbox.usage()).toBe(0);
    } finally {
      await q.sandbox.close();
    }
  });

  it("a new calendar month (UTC, on the sandbox's clock) starts every key at 0", async () => {
    const clock = movableClock(new Date("2025-08-31T23:00:00Z"));
    const q = await start({ quota: 1, now: clock.now });
    try {
      expect((await q.get("/datapoint/ROIC")).status).toBe(200);
      expect((await q.get("/datapoint/ROIC")).status).toBe(429);
      clock.set("2025-09-01T00:00:00Z");
      expect(q.sandbox.usage()).toBe(0);
      expect((await q.get("/datapoint/ROIC")).status).toBe(200);
      expect(q.sandbox.usage()).toBe(1);
    } finally {
      await q.sandbox.close();
    }
  });
});

describe("GET /__usage (and RunningSandbox.usage)", () => {
  const KEYS = ["usage-key-one", "usage-key-two"];

  it("lists units per accepted key under the first 8 hex of the key's SHA-256, never a raw key, and the quota", async () => {
    const c = await start({ quota: 100, apiKeys: KEYS });
    try {
      await c.get("/metrics/roic/AAPL?year=2023&datapoint=ROIC");
      await new Client(c.sandbox, KEYS[1]).get("/ratings/overall/AAPL");
      await new Client(c.sandbox, KEYS[1]).get("/coverage/stock");
      const page = await usagePage(c);
      expect(page.status).toBe(200);
      expect(JSON.parse(page.text)).toEqual({
        units: { [tagOf(DEMO_API_KEY)]: 1, [tagOf(KEYS[0]!)]: 0, [tagOf(KEYS[1]!)]: 2 },
        quota: 100,
      });
      for (const key of [DEMO_API_KEY, ...KEYS]) expect(page.text).not.toContain(key);
    } finally {
      await c.sandbox.close();
    }
  });

  it("?key=KEY answers {units, quota} for that key; a key that has spent nothing has 0", async () => {
    const c = await start({ quota: 100, apiKeys: KEYS });
    try {
      await new Client(c.sandbox, KEYS[0]).get("/screens/traditional/AAPL?year=2023");
      const one = await usagePage(c, `?key=${KEYS[0]}`);
      expect([one.status, JSON.parse(one.text)]).toEqual([200, { units: 24, quota: 100 }]);
      expect(JSON.parse((await usagePage(c, `?key=${KEYS[1]}`)).text)).toEqual({ units: 0, quota: 100 });
      expect(JSON.parse((await usagePage(c, "?key=never-seen")).text)).toEqual({ units: 0, quota: 100 });
      expect(c.sandbox.usage(KEYS[0])).toBe(24);
      expect(c.sandbox.usage()).toBe(0);
    } finally {
      await c.sandbox.close();
    }
  });

  it("quota is null without --quota, and usage is metered all the same", async () => {
    const c = await start();
    try {
      await c.get("/datapoint/ROIC");
      expect(JSON.parse((await usagePage(c)).text)).toEqual({
        units: { [tagOf(DEMO_API_KEY)]: 1 },
        quota: null,
      });
      expect(JSON.parse((await usagePage(c, `?key=${DEMO_API_KEY}`)).text)).toEqual({
        units: 1,
        quota: null,
      });
      expect(c.sandbox.usage()).toBe(1);
    } finally {
      await c.sandbox.close();
    }
  });

  it("needs no x-api-key, is not under /v1, is not counted in stats(), and answers with a spent quota in the refresh window", async () => {
    const c = await start({ quota: 0, refreshWindow: true, now: () => new Date("2025-01-15T11:05:00Z") });
    try {
      const requests = c.sandbox.stats().requests;
      expect((await usagePage(c)).status).toBe(200);
      expect(c.sandbox.stats().requests).toBe(requests);
      // /v1/__usage is an API path like any other.
      expect((await c.get("/__usage")).status).toBe(429);
      expect((await new Client(c.sandbox, "wrong").get("/__usage")).status).toBe(403);
    } finally {
      await c.sandbox.close();
    }
  });
});

describe("--refresh-window: 503 from 05:00 to 05:20 America/Chicago (option refreshWindow)", () => {
  /** Status of one /v1 call at each UTC instant. */
  async function statusesAt(instants: readonly string[], opts = { refreshWindow: true }): Promise<number[]> {
    const clock = movableClock(new Date(instants[0]!));
    const c = await start({ ...opts, now: clock.now });
    try {
      const statuses: number[] = [];
      for (const instant of instants) {
        clock.set(instant);
        statuses.push((await c.get("/datapoint/ROIC")).status);
      }
      return statuses;
    } finally {
      await c.sandbox.close();
    }
  }

  it("in CST (January, UTC-6): 04:59 answers, 05:00 and 05:19 are 503, 05:20 answers", async () => {
    expect(
      await statusesAt([
        "2025-01-15T10:59:59Z",
        "2025-01-15T11:00:00Z",
        "2025-01-15T11:19:59Z",
        "2025-01-15T11:20:00Z",
      ]),
    ).toEqual([200, 503, 503, 200]);
  });

  it("in CDT (July, UTC-5): 04:59 answers, 05:00 and 05:19 are 503, 05:20 answers", async () => {
    expect(
      await statusesAt([
        "2025-07-15T09:59:59Z",
        "2025-07-15T10:00:00Z",
        "2025-07-15T10:19:59Z",
        "2025-07-15T10:20:00Z",
      ]),
    ).toEqual([200, 503, 503, 200]);
  });

  it("the window follows daylight saving time: 10:05 UTC is in it in July, not in January", async () => {
    expect(
      await statusesAt(["2025-07-15T10:05:00Z", "2025-01-15T10:05:00Z", "2025-01-15T11:05:00Z"]),
    ).toEqual([503, 200, 503]);
  });

  it("every /v1 request answers 503 {message: Service Unavailable}, no envelope, and costs nothing", async () => {
    const c = await start({ refreshWindow: true, now: () => new Date("2025-07-15T10:10:00Z") });
    try {
      for (const path of [
        "/datapoint/ROIC",
        "/datapoint",
        "/metrics/roic/AAPL?year=2023&datapoint=NOPAT",
        "/screens/traditional/AAPL?year=2023",
        "/coverage/stock",
        "/sector/TECHNOLOGYSEC?datapoint=REVENUE",
        "/ratings/component/AAPL",
        "/ratings/overall/AAPL",
        "/nowhere",
      ]) {
        const reply = await c.get(path);
        expect([path, reply.status, reply.json]).toEqual([path, 503, UNAVAILABLE]);
      }
      expect(c.sandbox.usage()).toBe(0);
    } finally {
      await c.sandbox.close();
    }
  });

  it("the gateway's answers come first: an unknown key is 403 and a spent quota 429 in the window", async () => {
    const c = await start({ refreshWindow: true, quota: 0, now: () => new Date("2025-07-15T10:10:00Z") });
    try {
      expect((await new Client(c.sandbox, "wrong").get("/datapoint/ROIC")).status).toBe(403);
      expect((await c.get("/datapoint/ROIC")).json).toEqual(LIMIT_EXCEEDED);
    } finally {
      await c.sandbox.close();
    }
  });

  it("without the flag, 05:10 Chicago answers as usual", async () => {
    expect(await statusesAt(["2025-07-15T10:10:00Z"], { refreshWindow: false })).toEqual([200]);
  });
});

describe("--restate DAY: closed years change from DAY on (option restate)", () => {
  // DAY is the tests' clock day; fiscal years before 2025 are closed then.
  const DAY = "2025-08-15";
  const DAY_BEFORE = new Date("2025-08-14T23:59:59Z");
  const ALL_MODE = DATASETS.filter((d) => d.allDatapointsMode);
  const REVENUE_2023 = "/screens/traditional/AAPL?year=2023&datapoint=REVENUE";
  const value = async (c: Client, path: string): Promise<number> =>
    Number((await c.results<DataRecord[]>(path))[0]!.datavalue);

  let plain: Client;
  let restated: Client;
  beforeAll(async () => {
    [plain, restated] = await Promise.all([start(), start({ restate: DAY })]);
  });
  afterAll(() => Promise.all([plain.sandbox.close(), restated.sandbox.close()]));

  it("before DAY every answer is byte-identical to the sandbox without --restate", async () => {
    const [before, without] = await Promise.all([
      start({ restate: DAY, now: () => DAY_BEFORE }),
      start({ now: () => DAY_BEFORE }),
    ]);
    try {
      const paths = [
        ...ALL_MODE.map((d) => `/${d.path}/AAPL?year=2023`),
        "/fundamentals/reported/MSFT?year=2020&quarter=3&datapoint=INVENTORY",
        "/metrics/roic/MSFT?year=2024&ttm=2",
        "/sector/TECHNOLOGYSEC?datapoint=REVENUE&prior_year=1",
      ];
      for (const path of paths)
        expect([path, await rawText(before, path)]).toEqual([path, await rawText(without, path)]);
    } finally {
      await Promise.all([before.sandbox.close(), without.sandbox.close()]);
    }
  });

  it("a past-year value differs from DAY on and not before", async () => {
    const clock = movableClock(DAY_BEFORE);
    const c = await start({ restate: DAY, now: clock.now });
    try {
      const original = await value(plain, REVENUE_2023);
      expect(await value(c, REVENUE_2023)).toBe(original);
      clock.set(`${DAY}T00:00:00Z`);
      const changed = await value(c, REVENUE_2023);
      expect(changed).not.toBe(original);
      // A restatement, not new data: within 3% of the original figure.
      expect(Math.abs(changed / original - 1)).toBeLessThan(0.03);
      expect(Math.abs(changed / original - 1)).toBeGreaterThanOrEqual(0.004);
    } finally {
      await c.sandbox.close();
    }
  });

  it("most values of a closed year change, flows, balances and ratios alike; the open year's quarters do not", async () => {
    for (const d of ALL_MODE) {
      const a = await datasetValues(plain, d, "AAPL", "year=2023");
      const b = await datasetValues(restated, d, "AAPL", "year=2023");
      const moved = [...a].filter(([name, x]) => b.get(name) !== x).length;
      expect([d.path, moved > a.size / 2]).toEqual([d.path, true]);
    }
    const roic = findDataset("metrics/roic")!;
    const a23 = await datasetValues(plain, roic, "AAPL", "year=2023");
    const b23 = await datasetValues(restated, roic, "AAPL", "year=2023");
    for (const name of ["NOPAT", "CAPITAL_INVESTED", "ROIC"])
      expect([name, a23.get(name) !== b23.get(name)]).toEqual([name, true]);
    const open = findDataset("screens/traditional")!;
    expect(await datasetValues(restated, open, "AAPL", "year=2025&quarter=2")).toEqual(
      await datasetValues(plain, open, "AAPL", "year=2025&quarter=2"),
    );
  });

  it("the walks still add up after the restatement", async () => {
    let changed = 0;
    for (const d of WALK_DATASETS)
      for (const [ticker, query] of WALK_CASES) {
        const v = await datasetValues(restated, d, ticker, query);
        expect([d.path, ticker, query, walkErrors(d, v)]).toEqual([d.path, ticker, query, []]);
        const before = await datasetValues(plain, d, ticker, query);
        if ([...v].some(([name, x]) => before.get(name) !== x)) changed++;
      }
    // Most cases are in closed years, so the check ran on restated figures.
    expect(changed).toBeGreaterThan(WALK_DATASETS.length * 3);
  });

  it("annual = sum of quarters (flows), Q4 (balances), the mean (averages) after the restatement", async () => {
    for (const d of ALL_MODE)
      expect([d.path, await quarterErrors(restated, d, "AAPL", 2021)]).toEqual([d.path, []]);
  });

  it("the first open quarter's beginning capital is the restated ending capital of the last closed quarter", async () => {
    const roic = findDataset("metrics/roic")!;
    const q1 = await datasetValues(restated, roic, "AAPL", "year=2025&quarter=1");
    const q4 = await datasetValues(restated, roic, "AAPL", "year=2024&quarter=4");
    expect(q1.get("CAPITAL_INVESTED_BEGINNING")).toBe(q4.get("CAPITAL_INVESTED"));
    expect(q4.get("CAPITAL_INVESTED")).not.toBe(
      (await datasetValues(plain, roic, "AAPL", "year=2024&quarter=4")).get("CAPITAL_INVESTED"),
    );
  });

  it("a sector's sum is still the sum of its members' restated values", async () => {
    const sector = "ENERGYSEC";
    const members = (
      await restated.results<Array<{ ticker: string; sector: string }>>("/coverage/stock")
    ).filter((s) => s.sector === sector);
    let revenue = 0;
    let served = 0;
    await pool(members, 16, async (s) => {
      const path = `/screens/traditional/${encodeURIComponent(s.ticker)}?year=2023&datapoint=REVENUE`;
      if ((await restated.get(path)).status !== 200) return; // coverage starts later
      const x = await value(restated, path);
      revenue += x;
      served++;
    });
    expect(served).toBeGreaterThan(100);
    const sum = async (c: Client): Promise<number> =>
      Number(
        (await c.results<{ datavalue: string }>(`/sector/${sector}?datapoint=REVENUE&prior_year=1`))
          .datavalue,
      );
    const total = await sum(restated);
    expect(close(total, revenue)).toBe(true);
    expect(total).not.toBe(await sum(plain));
  });
});

describe("--endpoint-names: /v1/datapoint's endpoints as paths or group names (option endpointNames)", () => {
  interface Meta {
    name: string;
    api_data_key_name: string;
    description: string;
    endpoints: string;
  }
  /** The mapping docs/sandbox.md documents, pinned here. */
  const GROUP_OF = (path: string): string =>
    path === "sector"
      ? "Sector Data"
      : path === "fundamentals/adjusted"
        ? "Adjusted Fundamentals"
        : path === "fundamentals/reported"
          ? "Reported Fundamentals"
          : path.startsWith("reconciliation/")
            ? "Reconciliations"
            : "Model Data";
  const ORDER = [
    "Model Data",
    "Reconciliations",
    "Adjusted Fundamentals",
    "Reported Fundamentals",
    "Sector Data",
  ];

  let paths: Client;
  let groups: Client;
  beforeAll(async () => {
    [paths, groups] = await Promise.all([start(), start({ endpointNames: "groups" })]);
  });
  afterAll(() => Promise.all([paths.sandbox.close(), groups.sandbox.close()]));

  it("paths (the default): comma-separated dataset paths (and sector), no trailing period", async () => {
    expect((await paths.results<Meta>("/datapoint/INVENTORY")).endpoints).toBe(
      "fundamentals/adjusted, fundamentals/reported",
    );
    expect((await paths.results<Meta>("/datapoint/COUNT_COMPANY")).endpoints).toBe("sector");
    const explicit = await start({ endpointNames: "paths" });
    try {
      expect(await explicit.results("/datapoint")).toEqual(await paths.results("/datapoint"));
    } finally {
      await explicit.sandbox.close();
    }
  });

  it("groups: human group names, comma-separated, with a trailing period, as production serves them", async () => {
    expect((await groups.results<Meta>("/datapoint/EBIT")).endpoints).toBe(
      "Model Data, Adjusted Fundamentals.",
    );
    expect((await groups.results<Meta>("/datapoint/ROIC")).endpoints).toBe("Model Data.");
    expect((await groups.results<Meta>("/datapoint/COUNT_COMPANY")).endpoints).toBe("Sector Data.");
    expect((await groups.results<Meta>("/datapoint/REVENUE")).endpoints).toBe(
      "Model Data, Reconciliations, Adjusted Fundamentals, Reported Fundamentals, Sector Data.",
    );
  });

  it("groups: each record's endpoints are its paths mapped to groups, each group once, in a fixed order", async () => {
    const byPath = new Map((await paths.results<Meta[]>("/datapoint")).map((m) => [m.name, m]));
    const list = await groups.results<Meta[]>("/datapoint");
    expect(list.map((m) => m.name)).toEqual([...byPath.keys()]);
    for (const m of list) {
      const original = byPath.get(m.name)!;
      const expected = new Set(original.endpoints.split(", ").map(GROUP_OF));
      expect([m.name, m.endpoints]).toEqual([m.name, `${ORDER.filter((g) => expected.has(g)).join(", ")}.`]);
      expect({ ...m, endpoints: original.endpoints }).toEqual(original);
    }
  });

  it("groups: /datapoint/:name answers the list's record", async () => {
    const list = await groups.results<Meta[]>("/datapoint");
    await pool(list.slice(0, 40), 8, async (m) => {
      expect(await groups.results<Meta>(`/datapoint/${m.name}`)).toEqual(m);
    });
  });

  it("both modes carry name and api_data_key_name with the same value", async () => {
    for (const c of [paths, groups]) {
      const record = await c.results<Meta>("/datapoint/NOPAT");
      expect(Object.keys(record)).toEqual(["name", "api_data_key_name", "description", "endpoints"]);
      expect(record.api_data_key_name).toBe("NOPAT");
      expect(record.name).toBe("NOPAT");
    }
  });
});

describe("GET /v1/ratings/overall/:ticker (beyond the spec, as production serves it)", () => {
  let c: Client;
  beforeAll(async () => {
    c = await start();
  });
  afterAll(() => c.sandbox.close());

  it("answers {rating_overall, ticker, name} equal to /ratings/component's for stocks, ETFs and funds", async () => {
    for (const ticker of ["AAPL", "MSFT", "NFLX", "QQQ", "XLF", "GAFFX", "AUENX"]) {
      const overall = await c.results<Record<string, unknown>>(`/ratings/overall/${ticker}`);
      const component = await c.results<Record<string, unknown>>(`/ratings/component/${ticker}`);
      expect(Object.keys(overall)).toEqual(["rating_overall", "ticker", "name"]);
      expect(overall).toEqual({
        rating_overall: component.rating_overall,
        ticker: component.ticker,
        name: component.name,
      });
    }
  });

  it("a second share class and a lower-case ticker answer the primary company's record", async () => {
    const primary = await c.results("/ratings/overall/BF.A");
    expect(await c.results("/ratings/overall/BF.B")).toEqual(primary);
    expect(await c.results("/ratings/overall/bf.a")).toEqual(primary);
    expect((primary as { ticker: string }).ticker).toBe("BF.A");
  });

  it("the same errors as /ratings/component: RatingNotFound (404) for inactive stocks, sectors, industries, unknown tickers", async () => {
    for (const ticker of ["ENRN:1", "X:2", "TECHNOLOGYSEC", "BEVERAGESI", "NOSUCH"]) {
      const expected = await c.error(`/ratings/component/${ticker}`);
      expect([ticker, expected]).toEqual([ticker, [404, SPEC_ERRORS.RatingNotFound.message]]);
      expect([ticker, await c.error(`/ratings/overall/${ticker}`)]).toEqual([ticker, expected]);
    }
    expect(await c.error("/ratings/overall")).toEqual([404, "Not Found"]);
  });

  it("answers in the production envelope (body a JSON string), or an object with bodyAsObject", async () => {
    const reply = await c.get("/ratings/overall/AAPL");
    const env = reply.json as { statusCode: number; headers: Record<string, string>; body: unknown };
    expect(env.statusCode).toBe(200);
    expect(env.headers).toEqual({ "Content-Type": "application/json" });
    expect(typeof env.body).toBe("string");
    const objects = await start({ bodyAsObject: true });
    try {
      const body = ((await objects.get("/ratings/overall/AAPL")).json as { body: unknown }).body;
      expect(body).toEqual(JSON.parse(env.body as string));
    } finally {
      await objects.sandbox.close();
    }
  });

  it("does not depend on the clock's day, like the component ratings", async () => {
    const other = await start({ now: () => new Date(TEST_NOW.getTime() + 86_400_000 * 40) });
    try {
      expect(await other.results("/ratings/overall/AAPL")).toEqual(await c.results("/ratings/overall/AAPL"));
    } finally {
      await other.sandbox.close();
    }
  });
});
