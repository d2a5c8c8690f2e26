// What a cell says after a failed answer: never the API key (raw or URL-encoded), the gateway's own words
// kept after the stock text, a status the spec does not list explained with what to do, and the "what to
// do" taken from the client's hints (the CLI's flags instead of the task pane).
import type { ClientEvent, ClientOptions, FdqError } from "../../../src/api";
import { FakeFetch, envelope, json, makeClient, type Handler } from "./fake-fetch";

const KEY = "TOPSECRET42";
const ODD_KEY = "top secret/42+x"; // sent as is, echoed URL-encoded by some gateways
const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: 2023 };

async function failWith(handler: Handler, extra: Partial<ClientOptions> = {}) {
  const events: ClientEvent[] = [];
  const fake = new FakeFetch(handler);
  const client = makeClient(fake, {
    apiKey: KEY,
    retry: { attempts: 1 },
    onEvent: (e) => events.push(e),
    ...extra,
  });
  const error = await client.datapoint(request).then(
    () => undefined,
    (e: unknown) => e as FdqError,
  );
  const failures = events.flatMap((e) => (e.type === "failure" ? [e.message] : []));
  return { error, failures, count: fake.count, stats: client.stats() };
}

describe("the API key never reaches a message", () => {
  it.each([
    [
      400,
      { message: `Invalid key ${KEY}` },
      "The FDQ service answered 400 (Invalid key [API key]). Check the function's arguments.",
    ],
    [
      403,
      { message: `Key ${KEY} is not authorized` },
      "The FDQ service refused the request (403: Key [API key] is not authorized). Check the key in the FDQ task pane. Check the base URL in the FDQ task pane: it must end in /v1.",
    ],
    [
      502,
      { message: `upstream rejected key ${KEY}` },
      "The FDQ service is unavailable (502: upstream rejected key [API key]). Try again later, then recalculate.",
    ],
  ])(
    "replaces the key echoed in a %i message by [API key], in the error and the failure event",
    async (status, body, message) => {
      const { error, failures, count } = await failWith(() => json(status, body));
      expect(error?.message).toBe(message);
      expect(failures).toEqual([message]);
      expect(count).toBe(1);
    },
  );

  it("replaces the key in an HTML page's title and the URL-encoded key", async () => {
    const page = new Response(`<html><title>Bad key ${encodeURIComponent(ODD_KEY)}</title></html>`, {
      status: 502,
      headers: { "content-type": "text/html" },
    });
    const { error, failures } = await failWith(() => page, { apiKey: ODD_KEY });
    const message =
      'The FDQ service is unavailable (502: an HTML page "Bad key [API key]"). Try again later, then recalculate.';
    expect(error?.message).toBe(message);
    expect(failures).toEqual([message]);
  });

  it("replaces the key in the title of a 200 HTML page that is not the service's answer", async () => {
    const page = new Response(`<html><title>Welcome ${KEY}</title></html>`, {
      status: 200,
      headers: { "content-type": "text/html" },
    });
    const { error } = await failWith(() => page);
    expect(error?.message).toBe(
      'The FDQ service sent an answer that could not be read (an HTML page "Welcome [API key]" instead of JSON). Check the base URL in the FDQ task pane: it must end in /v1.',
    );
  });
});

describe("the service's own words are kept", () => {
  it("keeps API Gateway's 403 for a wrong path after the stock text, naming the base URL too", async () => {
    const { error } = await failWith(() => json(403, { message: "Missing Authentication Token" }));
    expect(error?.name).toBe("UnauthorizedError");
    expect(error?.message).toBe(
      "The FDQ service refused the request (403: Missing Authentication Token). Check the key in the FDQ task pane. Check the base URL in the FDQ task pane: it must end in /v1.",
    );
  });

  it("keeps the stock text alone when the gateway says only Forbidden", async () => {
    const { error } = await failWith(() => json(403, { message: "Forbidden" }));
    expect(error?.message).toBe(
      "The FDQ service refused the API key (403). Check the key in the FDQ task pane.",
    );
  });

  it("shows a portfolio-limited plan's own refusal (wire-notes 14), 403 or 404", async () => {
    for (const status of [403, 404]) {
      const said = "Ticker NFLX is not in your portfolio.";
      const { error } = await failWith(() => json(status, { message: said }));
      expect([error?.name, error?.message]).toEqual([
        "NotInPortfolioError",
        `The FDQ service refused this security for your plan (${status}: ${said}). Individual plans serve company data only for securities in the member's portfolio, from the day after one is added.`,
      ]);
    }
  });

  it("cuts the service's text to 300 characters: a cell shows a message, not a body", async () => {
    const { error } = await failWith(() => json(400, { message: "x".repeat(1_000_000) }));
    expect(error?.message).toBe(
      `The FDQ service answered 400 (${"x".repeat(300)}… (1000000 characters in all)). Check the function's arguments.`,
    );
  });

  it("does not read an error body over the size bound: the status still decides the class", async () => {
    const { error } = await failWith(() => json(400, { message: "x".repeat(8_000_000) }));
    expect(error?.message).toBe(
      "The FDQ service answered 400 (a body larger than 4 MB). Check the function's arguments.",
    );
  });

  it.each(["1e999", "", "NaN", "n/a"])(
    "refuses a datavalue %j as a BadResponse naming the datapoint",
    async (bad) => {
      const { error } = await failWith(() =>
        envelope([
          { ticker: "AAPL", year: 2023, period: 5, periodtype: "ANNUAL", datapoint: "ROIC", datavalue: bad },
        ]),
      );
      expect(error?.name).toBe("BadResponseError");
      expect(error?.message).toContain(`(datapoint ROIC has no finite decimal value (got "${bad}"))`);
    },
  );

  it("keeps a 429's own message inside the rate-limit text", async () => {
    const { error } = await failWith(() => json(429, { message: "Slow down" }));
    expect(error?.message).toBe(
      "The FDQ service is limiting the request rate (429: Slow down) and the retries did not get through. Wait a minute, then recalculate.",
    );
  });

  it("says what failed and what to do for a 404 the spec does not list", async () => {
    const { error } = await failWith(() => json(404, { message: "Not Found" }));
    expect(error?.name).toBe("ServiceError");
    expect(error?.message).toBe(
      "The FDQ service answered 404 (Not Found). Check the base URL in the FDQ task pane: it must end in /v1.",
    );
  });
});

describe("hints from the client's options", () => {
  const hints = {
    apiKey: "Check --api-key or FDQ_API_KEY.",
    baseUrl: "Check --base-url or FDQ_BASE_URL: it must end in /v1.",
    connection: "Is the service at --base-url running?",
  };

  it("uses the given hints for a refused key, an unreadable answer and no answer", async () => {
    const refused = await failWith(() => json(403, { message: "Forbidden" }), { hints });
    expect(refused.error?.message).toBe(
      "The FDQ service refused the API key (403). Check --api-key or FDQ_API_KEY.",
    );
    const unreadable = await failWith(() => json(200, { statusCode: 200, body: "{}" }), { hints });
    expect(unreadable.error?.message).toBe(
      "The FDQ service sent an answer that could not be read (the answer holds no results). Check --base-url or FDQ_BASE_URL: it must end in /v1.",
    );
    const unreachable = await failWith(
      () => {
        throw new TypeError("fetch failed");
      },
      { hints },
    );
    expect(unreachable.error?.message).toBe(
      "Could not reach the FDQ service (fetch failed). Is the service at --base-url running?",
    );
  });

  it("gives decoding errors the hints too, and counts them as failures", async () => {
    const notRecords = json(200, { statusCode: 200, body: JSON.stringify({ results: [42] }) });
    const { error, stats } = await failWith(() => notRecords, { hints });
    expect(error?.message).toBe(
      "The FDQ service sent an answer that could not be read (a result is not a datapoint record). Check --base-url or FDQ_BASE_URL: it must end in /v1.",
    );
    expect(stats.failures).toEqual({ BadResponseError: 1 });
  });
});

describe("an answer that does not match its request", () => {
  const record = (o: object) => ({
    ticker: "AAPL",
    year: 2023,
    period: 5,
    periodtype: "ANNUAL",
    datapoint: "ROIC",
    datavalue: "0.1",
    ...o,
  });

  it.each([
    [{ year: 2022 }, "an answer for ANNUAL period 5 of 2022, not ANNUAL period 5 of 2023 (datapoint ROIC)"],
    [
      { period: 2, periodtype: "QUARTERLY" },
      "an answer for QUARTERLY period 2 of 2023, not ANNUAL period 5 of 2023",
    ],
    // An annual answer is period 5 ANNUAL only (spec rules 1-3).
    [{ period: 4 }, "an answer for ANNUAL period 4 of 2023, not ANNUAL period 5 of 2023"],
    [{ periodtype: "TTM" }, "an answer for TTM period 5 of 2023, not ANNUAL period 5 of 2023"],
  ])("is a BadResponse for another year or period: %j", async (change, detail) => {
    const { error } = await failWith(() => envelope([record(change)]));
    expect(error?.name).toBe("BadResponseError");
    expect(error?.message).toContain(detail);
  });

  it("is a BadResponse for a datapoint answered twice, never a value", async () => {
    const { error } = await failWith(() => envelope([record({}), record({ datavalue: "0.2" })]));
    expect(error?.message).toContain("datapoint ROIC answered twice");
  });
});
