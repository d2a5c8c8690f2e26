// What a refresh day keeps: one rule (keptForDay, src/api/answer-reading.ts) for the add-in's day cache and
// the gateway's store. Each answer of the table is given to a client (over an injected fetch) and to the
// gateway's keepable; both keep it, or neither does.
import { FdqClient, RequestKey, type FdqRequest } from "../../../src/api";
import { SPEC_ERRORS } from "../../../src/catalog";
import { keepable } from "../../../src/gateway/proxy";
import { BASE_URL, defaultAnswer } from "../api/fake-fetch";

const ROIC = { ticker: "AAPL", dataset: "metrics/roic", name: "ROIC", year: 2023 };
const REQUEST: FdqRequest = { kind: "datapoint", request: ROIC };

const ROIC_PATH = "/metrics/roic/AAPL?datapoint=ROIC&year=2023";
/** The request's key, as the gateway reads it from the path it relays. */
const ROIC_KEY = RequestKey.parse(ROIC_PATH.slice(1))!;

interface Answer<Body = string | (() => Promise<string>)> {
  status: number;
  /** The text, or (a good answer) the fake service's answer for ROIC_PATH. */
  body: Body;
  retryAfter?: string;
  contentType?: string;
}

const message = (name: keyof typeof SPEC_ERRORS): Answer => ({
  status: SPEC_ERRORS[name].status,
  body: JSON.stringify({ message: SPEC_ERRORS[name].message }),
});
const envelope = (statusCode: number, body: unknown): Answer => ({
  status: 200,
  body: JSON.stringify({ statusCode, headers: {}, body: JSON.stringify(body) }),
});

/** A good answer's one record, changed: an answer that does not match its request. */
const changed = (change: Record<string, unknown>) => async (): Promise<string> => {
  const good = (await defaultAnswer(new URL(`${BASE_URL}${ROIC_PATH}`)).json()) as {
    body: string;
    [field: string]: unknown;
  };
  const body = JSON.parse(good.body) as { results: Record<string, unknown>[] };
  body.results = body.results.map((r) => ({ ...r, ...change }));
  return JSON.stringify({ ...good, body: JSON.stringify(body) });
};

const TABLE: [string, Answer, boolean][] = [
  [
    "a good answer",
    { status: 200, body: () => defaultAnswer(new URL(`${BASE_URL}${ROIC_PATH}`)).text() },
    true,
  ],
  ["a 'does not exist' refusal", message("DataNotFound"), true],
  ["a 'does not exist' refusal inside a 200 envelope", envelope(400, SPEC_ERRORS.DataNotFound), true],
  ["an outage (503)", { status: 503, body: "{}" }, false],
  ["a spent quota (Limit Exceeded)", { status: 429, body: '{"message":"Limit Exceeded"}' }, false],
  [
    "a throttle (429 with Retry-After)",
    { status: 429, body: '{"message":"slow down"}', retryAfter: "5" },
    false,
  ],
  ["a refused key (403)", { status: 403, body: '{"message":"Forbidden"}' }, false],
  ["an HTML page with 200", { status: 200, body: "<html></html>", contentType: "text/html" }, false],
  ["an answer for another year", { status: 200, body: changed({ year: 2022 }) }, false],
  ["an answer for another ticker", { status: 200, body: changed({ ticker: "MSFT" }) }, false],
  ["an answer for another datapoint", { status: 200, body: changed({ datapoint: "NOPAT" }) }, false],
  ["a good envelope with no record (does not exist)", envelope(200, { results: [] }), true],
];

/** Whether the client's day cache holds the request after the service gave `a`. */
async function clientKeeps(a: Answer<string>): Promise<boolean> {
  const client = new FdqClient({
    baseUrl: BASE_URL,
    apiKey: "kept-for-day-key-0123",
    fetch: async () =>
      new Response(a.body, {
        status: a.status,
        headers: {
          "content-type": a.contentType ?? "application/json",
          ...(a.retryAfter ? { "retry-after": a.retryAfter } : {}),
        },
      }),
    retry: { attempts: 1 },
    billing: "per-datapoint",
    coalesceWindowMs: 0,
  });
  await client.datapoint(ROIC).catch(() => undefined);
  const kept = client.plan(REQUEST).cached;
  await client.close();
  return kept;
}

describe("what a refresh day keeps, in the client and the gateway alike", () => {
  it.each(TABLE.map(([name, answer, kept]) => [name, kept, answer] as const))(
    "%s: kept %s",
    async (_name, kept, given) => {
      const answer = { ...given, body: typeof given.body === "string" ? given.body : await given.body() };
      expect(await clientKeeps(answer)).toBe(kept);
      const gateway = keepable(
        {
          status: answer.status,
          contentType: answer.contentType ?? "application/json",
          body: answer.body,
          retryAfter: answer.retryAfter,
        },
        ROIC_KEY,
      );
      expect(gateway.keep).toBe(kept);
    },
  );
});
