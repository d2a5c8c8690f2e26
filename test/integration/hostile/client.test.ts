// The request module against a hostile service over real HTTP on 127.0.0.1: every answer is a value or an
// error with its exact message, nothing wrong is cached, and the key (in any encoding) is in no value,
// message, event or stored cache.
import {
  FdqClient,
  MemoryStorage,
  type ClientEvent,
  type ClientOptions,
  type FdqError,
} from "../../../src/api";
import { EXCEL_HINTS } from "../../../src/host/excel-hints";
import { startHostile } from "../../support/hostile-server";
import { ECHOES, KEY, echoId, hostileScript, leaks, unreadableWith, useHostileService } from "./cases";

const NOW = Date.parse("2024-03-15T15:00:00Z");
const unreadable = unreadableWith("Check the base URL in the FDQ task pane: it must end in /v1.");

const hostile = useHostileService();

interface Harness {
  client: FdqClient;
  events: ClientEvent[];
  storage: MemoryStorage;
}

const open: FdqClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

function harness(options: Partial<ClientOptions> = {}): Harness {
  const events: ClientEvent[] = [];
  const storage = new MemoryStorage();
  const client = new FdqClient({
    baseUrl: hostile.service.baseUrl,
    apiKey: KEY,
    now: () => NOW,
    retry: { attempts: 1 },
    billing: "per-datapoint",
    storage,
    persistDelayMs: 0,
    onEvent: (e) => events.push(e),
    hints: EXCEL_HINTS,
    ...options,
  });
  open.push(client);
  return { client, events, storage };
}

/** The value of ROIC 2023 of `ticker`, or the error it fails with. */
const roic = (client: FdqClient, ticker: string): Promise<number | string | FdqError> =>
  client.datapoint({ ticker, dataset: "metrics/roic", name: "ROIC", year: 2023 }).then(
    (r) => r.value,
    (e: unknown) => e as FdqError,
  );

/** Every text the client let out: events and the stored cache (after a flush). */
async function outputs(h: Harness): Promise<string> {
  await h.client.flush();
  return JSON.stringify(h.events) + JSON.stringify([...h.storage.items.entries()]);
}

describe("the key echoed back is in no message, value, event or cache", () => {
  it.each(ECHOES.map((e, i) => [e.name, i] as const))("in an error body, %s", async (_, i) => {
    const h = harness();
    const error = (await roic(h.client, echoId(i))) as FdqError;
    expect(error.message).toBe(
      `The FDQ service answered 400 (bad key ${ECHOES[i]!.shown}). Check the function's arguments.`,
    );
    expect(leaks(await outputs(h))).toEqual([]);
  });

  it.each(ECHOES.map((e, i) => [e.name, i] as const))(
    "in a 200 answer's security name, rating name, text datapoint and description, %s",
    async (_, i) => {
      const h = harness();
      const id = echoId(i);
      const shown = ECHOES[i]!.shown;
      expect((await h.client.security("stock", id)).data.name).toBe(`Corp ${shown}`);
      expect((await h.client.ratings(id)).data.name).toBe(`Corp ${shown}`);
      expect((await h.client.sector({ id, name: "CATEGORY_TYPE" })).value).toBe(`sector ${shown}`);
      expect((await h.client.datapointInfo(`ECHO_${id}`)).data.description).toBe(`About ${shown}`);
      // The cached answers are the redacted ones.
      expect((await h.client.security("stock", id)).source).toBe("cache");
      expect(leaks(await outputs(h))).toEqual([]);
    },
  );
});

describe("an answer that is not the request's is an error, never a value, never cached", () => {
  it.each([
    ["another ticker", "OTHERTICKER", "an answer for ticker MSFT, not OTHERTICKER (datapoint ROIC)"],
    [
      "another year",
      "OTHERYEAR",
      "an answer for ANNUAL period 5 of 2022, not ANNUAL period 5 of 2023 (datapoint ROIC)",
    ],
    [
      "another period",
      "OTHERPERIOD",
      "an answer for QUARTERLY period 2 of 2023, not ANNUAL period 5 of 2023 (datapoint ROIC)",
    ],
    ["another datapoint", "OTHERDATAPOINT", "an answer for datapoint NOPAT, not ROIC"],
    ["a datapoint twice", "DUPLICATE", "datapoint ROIC answered twice"],
    ["1e999", "INFINITE", 'datapoint ROIC has no finite decimal value (got "1e999")'],
    ["NaN", "NAN", 'datapoint ROIC has no finite decimal value (got "NaN")'],
    ["an empty datavalue", "EMPTY", 'datapoint ROIC has no finite decimal value (got "")'],
    ["a 50 MB body", "HUGE", "an answer larger than 4 MB"],
  ])("%s", async (_, ticker, detail) => {
    const h = harness();
    const before = hostile.service.seen.length;
    expect(((await roic(h.client, ticker)) as FdqError).message).toBe(unreadable(detail));
    // Not cached: asking again sends the request again. Before the first, the day's coverage list, which this
    // service answers with an error: not asked again that day, and the data requests are sent all the same.
    expect(((await roic(h.client, ticker)) as FdqError).message).toBe(unreadable(detail));
    expect(hostile.service.seen.length - before).toBe(1 + 2);
    expect(h.client.stats()).toMatchObject({ cacheHits: 0, failures: { BadResponseError: 2 } });
  });

  it("takes the primary ticker's records for a second share class (BF.B answered as BF.A)", async () => {
    const h = harness();
    expect(await roic(h.client, "BF.B")).toBe(0.5);
  });

  it("keeps a 50 MB error body's status: a 503 is unavailable, its body unread", async () => {
    const h = harness();
    expect(((await roic(h.client, "HUGEERROR")) as FdqError).message).toBe(
      "The FDQ service is unavailable (503: a body larger than 4 MB). Try again later, then recalculate.",
    );
  });

  it("cuts a body that trickles in when the attempt's time is up", async () => {
    const h = harness({ timeoutMs: 1_000 });
    expect(((await roic(h.client, "SLOW")) as FdqError).message).toBe(
      "The FDQ service did not answer within 1 s. Try again later, then recalculate.",
    );
  });

  it("never follows a redirect to another origin with the key", async () => {
    const h = harness();
    expect(((await roic(h.client, "AWAY")) as FdqError).message).toBe(
      unreadable(`a redirect to ${hostile.elsewhere.origin}, another origin, where the API key is not sent`),
    );
    expect(hostile.elsewhere.seen).toEqual([]);
  });

  it("takes a right answer after all that", async () => {
    const h = harness();
    expect(await roic(h.client, "OK")).toBe(0.25);
  });
});

describe("a Retry-After that is not the RFC's is ignored: the backoff decides the wait", () => {
  it.each(["-5", "soon", "1.5", "2024-03-15T15:00:05Z"])("Retry-After: %s", async (header) => {
    let calls = 0;
    const throttling = await startHostile(() =>
      ++calls === 1
        ? {
            status: 429,
            headers: { "retry-after": header },
            body: JSON.stringify({ message: "Too Many Requests" }),
          }
        : hostileScript("")("/v1/metrics/roic/OK?datapoint=ROIC&year=2023"),
    );
    const slept: number[] = [];
    // This server gives every path the data answer: the after-the-fact coverage rule keeps its one 429 on the
    // data request (the default rule's coverage list would meet it).
    const h = harness({
      coverageCheck: "after",
      baseUrl: throttling.baseUrl,
      retry: { attempts: 2 },
      random: () => 0.5,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    expect(await roic(h.client, "OK")).toBe(0.25);
    // Full jitter: 0.5 x 500 ms for the first retry; "-5" read as a date would have been no wait at all.
    expect(slept).toEqual([250]);
    expect(h.client.stats()).toMatchObject({ requestsSent: 2, retries: 1 });
    await throttling.close();
  });
});
