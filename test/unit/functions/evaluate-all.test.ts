// evaluateAll (src/functions/evaluate.ts): how `fdq eval` and `fdq refresh` evaluate their cells, as one Excel
// recalculation. It pauses every few hundred calls for the cached ones to settle; these rules say what the
// pauses must not change.
import type { DatapointRequest, DatapointResult } from "../../../src/api";
import { evaluateAll, evaluateEach, type Outcome } from "../../../src/functions/evaluate";
import { readFdqCall } from "../../../src/functions/formula";
import { evaluateCall, type FdqApi } from "../../../src/functions/impl";

/** A client that answers DATAPOINT only: at once (`now`), or when `release()` is called. */
function fakeClient(now: (req: DatapointRequest) => boolean) {
  const asked: DatapointRequest[] = [];
  const held: (() => void)[] = [];
  const answer = (req: DatapointRequest): DatapointResult => ({
    value: Number(req.year),
    record: {
      ticker: String(req.ticker),
      year: Number(req.year),
      period: 5,
      periodtype: "ANNUAL",
      periodstring: "FY",
      datapoint: String(req.name),
      datavalue: String(req.year),
    },
    source: "cache",
    refreshDay: "2026-11-24",
    url: "",
  });
  const datapoint = (req: DatapointRequest): Promise<DatapointResult> => {
    asked.push(req);
    if (now(req)) return Promise.resolve(answer(req));
    return new Promise((resolve) => held.push(() => resolve(answer(req))));
  };
  const unused = (): never => {
    throw new Error("not asked by DATAPOINT");
  };
  const client = {
    datapoint,
    dataset: unused,
    datapointInfo: unused,
    coverageList: unused,
    security: unused,
    sector: unused,
    ratings: unused,
  } as unknown as FdqApi; // only datapoint() is reached by these calls
  return { client, asked, release: () => held.splice(0).forEach((go) => go()) };
}

/** n DATAPOINT calls, the year counting up from 1000 so that each outcome says which call it is. */
const calls = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    readFdqCall(`=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",${1000 + i})`),
  );

const values = (outcomes: readonly Outcome[]) => outcomes.map((o) => (o.ok ? o.value : o.error.message));

describe("evaluateAll", () => {
  it("starts every call before any timer or I/O callback runs, however many calls there are", async () => {
    const { client, asked, release } = fakeClient(() => false);
    const seen: number[] = [];
    // The request module's coalescing window is a timer: it must find every call already asked.
    setTimeout(() => seen.push(asked.length), 0);
    setImmediate(() => seen.push(asked.length));
    const done = evaluateAll(client, calls(2_345));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual([2_345, 2_345]);
    release();
    expect(values(await done)).toEqual(Array.from({ length: 2_345 }, (_, i) => 1000 + i));
  });

  it("gives one outcome per call in call order when some are answered at once and others later", async () => {
    const { client, release } = fakeClient((req) => Number(req.year) % 3 !== 0);
    const done = evaluateAll(client, calls(1_200), { provenance: true });
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const outcomes = await done;
    expect(values(outcomes)).toEqual(Array.from({ length: 1_200 }, (_, i) => 1000 + i));
    expect(outcomes[7]).toEqual({
      ok: true,
      value: 1007,
      sources: [{ year: 1007, period: 5, periodtype: "ANNUAL", refreshDay: "2026-11-24" }],
    });
  });

  it("settles the calls answered at once while it is still starting the others", async () => {
    const { client } = fakeClient(() => true);
    const settledWhenLastAsked: number[] = [];
    let settled = 0;
    const counting: FdqApi = {
      ...client,
      datapoint: (req) => {
        if (Number(req.year) === 1000 + 1_499) settledWhenLastAsked.push(settled);
        return client.datapoint(req).finally(() => settled++);
      },
    };
    await evaluateAll(counting, calls(1_500));
    // The first 1,000 (two pauses) had settled before the last call was asked.
    expect(settledWhenLastAsked[0]).toBeGreaterThanOrEqual(1_000);
  });

  it("hands each outcome to `each` when it settles, keeping what `each` returns in call order", async () => {
    const { client, release } = fakeClient((req) => Number(req.year) % 2 === 0);
    const seen: number[] = [];
    const done = evaluateEach(client, calls(1_000), { provenance: true }, (outcome, i) => {
      seen.push(i);
      return outcome.ok ? `${i}:${String(outcome.value)}:${outcome.sources?.[0]?.year}` : "failed";
    });
    await new Promise((resolve) => setImmediate(resolve));
    // The calls answered at once were handed over before the others were answered.
    expect(seen).toEqual(Array.from({ length: 500 }, (_, k) => 2 * k));
    release();
    expect(await done).toEqual(Array.from({ length: 1_000 }, (_, i) => `${i}:${1000 + i}:${1000 + i}`));
  });

  it("rejects when `each` throws", async () => {
    const { client } = fakeClient(() => true);
    const each = (_: Outcome, i: number): number => {
      if (i === 3) throw new Error("cannot format");
      return i;
    };
    await expect(evaluateEach(client, calls(10), {}, each)).rejects.toThrow("cannot format");
  });
});

describe("evaluateCall", () => {
  const toError = (err: unknown): never => {
    throw err;
  };

  it("names a call's arguments by its function's parameters, in order, a quarter at the fifth", async () => {
    const { client, asked } = fakeClient(() => true);
    await evaluateCall(client, readFdqCall(`=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2023,2)`), toError);
    expect(asked).toEqual([
      { ticker: "MSFT", dataset: "metrics/roic", name: "ROIC", year: 2023, quarter: 2, ttm: undefined },
    ]);
  });

  it("passes an argument left out, or left empty, as omitted", async () => {
    const { client, asked } = fakeClient(() => true);
    await evaluateCall(client, readFdqCall(`=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2023,,3)`), toError);
    await evaluateCall(client, { name: "DATAPOINT", args: ["MSFT", "metrics/roic", "ROIC", 2021] }, toError);
    expect(asked.map((r) => [r.year, r.quarter, r.ttm])).toEqual([
      [2023, undefined, 3],
      [2021, undefined, undefined],
    ]);
  });
});
