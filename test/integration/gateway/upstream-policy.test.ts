// One upstream policy (src/api/upstream-policy.ts) for the add-in's client and the gateway: against the same
// service on 127.0.0.1, each case is asked of the service directly by FdqClient and through `fdq serve`, and
// both follow, refuse and cut alike, in the same words.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { BadResponseError, FdqClient, type FdqError, sizeText, UPSTREAM_POLICY } from "../../../src/api";
import { startGateway, type RunningGateway } from "../../../src/gateway";

const KEY = "POLICY-TEST-KEY-0123";
const NOW = Date.parse("2024-03-15T15:00:00Z");
const record = (ticker: string) => ({
  ticker,
  year: 2023,
  period: 5,
  periodtype: "ANNUAL",
  datapoint: "ROIC",
  datavalue: "0.12",
});
const envelope = (ticker: string) =>
  JSON.stringify({ statusCode: 200, headers: {}, body: JSON.stringify({ results: [record(ticker)] }) });

interface Server {
  origin: string;
  seen: { url: string; key: string | undefined }[];
  close: () => Promise<void>;
}

/** A service whose answer depends on the path's ticker (the gateway asks the same paths the client does). */
async function serve(
  answer: (url: string) => { status: number; location?: string; body?: string },
): Promise<Server> {
  const seen: Server["seen"] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", key: req.headers["x-api-key"] as string | undefined });
    const a = answer(req.url ?? "");
    res.writeHead(a.status, {
      "content-type": "application/json",
      ...(a.location ? { location: a.location } : {}),
    });
    res.end(a.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let service: Server;
let elsewhere: Server;
let gateway: RunningGateway;

beforeAll(async () => {
  elsewhere = await serve(() => ({ status: 200, body: envelope("AWAY") }));
  service = await serve((url) => {
    const ticker = /\/metrics\/roic\/([A-Z]+)/.exec(url)?.[1] ?? "";
    const moved = url.includes("moved=1");
    switch (ticker) {
      case "SAME": // moved on this origin once
        return moved ? { status: 200, body: envelope(ticker) } : { status: 302, location: `${url}&moved=1` };
      case "AWAY":
        return { status: 302, location: `${elsewhere.origin}${url}` };
      case "LOOP":
        return { status: 307, location: url };
      case "HUGE":
        return { status: 200, body: " ".repeat(UPSTREAM_POLICY.maxBodyBytes + 1) };
      default:
        return { status: 404, body: "{}" };
    }
  });
  gateway = await startGateway({
    upstream: `${service.origin}/v1`,
    port: 0,
    log: () => undefined,
    onWarning: () => undefined,
  });
});

afterAll(async () => {
  await gateway.close();
  await Promise.all([service.close(), elsewhere.close()]);
});

const path = (ticker: string) => `/metrics/roic/${ticker}?datapoint=ROIC&year=2023`;

/** The client's value or error for `ticker`, asked of the service directly. */
async function direct(ticker: string): Promise<{ value?: unknown; error?: FdqError; sent: number }> {
  const client = new FdqClient({
    baseUrl: `${service.origin}/v1`,
    apiKey: KEY,
    now: () => NOW,
    retry: { attempts: 1 },
    billing: "per-datapoint",
    // `sent` counts the one data request's redirects, as the gateway's are counted: without the coverage list
    // the default rule would ask first (this service has none).
    coverageCheck: "after",
  });
  try {
    const r = await client.datapoint({ ticker, dataset: "metrics/roic", name: "ROIC", year: 2023 });
    return { value: r.value, sent: client.stats().requestsSent };
  } catch (e) {
    return { error: e as FdqError, sent: client.stats().requestsSent };
  } finally {
    await client.close();
  }
}

/** The gateway's status and message (or value) for `ticker`. */
async function throughGateway(ticker: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${gateway.url}/v1${path(ticker)}`, { headers: { "x-api-key": KEY } });
  return { status: res.status, text: await res.text() };
}

/** Asks `ticker` directly and through the gateway: both must refuse it with `words`. */
async function bothRefuse(ticker: string, words: string): Promise<{ sent: number; gatewayText: string }> {
  const d = await direct(ticker);
  expect(d.error).toBeInstanceOf(BadResponseError);
  expect(d.error!.message).toContain(words);
  const g = await throughGateway(ticker);
  expect(g.status).toBe(502);
  expect((JSON.parse(g.text) as { message: string }).message).toContain(words);
  return { sent: d.sent, gatewayText: g.text };
}

const requestsFor = (ticker: string): Server["seen"] =>
  service.seen.filter((s) => s.url.includes(`/${ticker}?`));

describe("the upstream policy, applied alike by the client and the gateway", () => {
  it("follows a same-origin redirect with the key, once each", async () => {
    const d = await direct("SAME");
    expect(d.value).toBe(0.12);
    expect(d.sent).toBe(2);
    const g = await throughGateway("SAME");
    expect(g.status).toBe(200);
    expect(JSON.parse(g.text)).toEqual(JSON.parse(envelope("SAME")));
    const seen = requestsFor("SAME");
    expect(seen.map((s) => s.url.includes("moved=1"))).toEqual([false, true, false, true]);
    expect(seen.every((s) => s.key === KEY)).toBe(true);
  });

  it("never follows a redirect to another origin, and says so in the same words", async () => {
    const words = `a redirect to ${elsewhere.origin}, another origin, where the API key is not sent`;
    const { gatewayText } = await bothRefuse("AWAY", words);
    expect(gatewayText).not.toContain(KEY);
    expect(elsewhere.seen).toEqual([]);
  });

  it(`stops a redirect loop after ${UPSTREAM_POLICY.maxRedirects} hops`, async () => {
    const hops = UPSTREAM_POLICY.maxRedirects;
    const { sent } = await bothRefuse("LOOP", `more than ${hops} redirects`);
    expect(sent).toBe(hops + 1);
    expect(requestsFor("LOOP")).toHaveLength(2 * (hops + 1));
  });

  it("cuts a body over the same bound, with the same words", async () => {
    const words = `an answer larger than ${sizeText(UPSTREAM_POLICY.maxBodyBytes)}`;
    expect(words).toBe("an answer larger than 4 MB");
    await bothRefuse("HUGE", words);
  });
});
