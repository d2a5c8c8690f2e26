// Redirects over real HTTP on 127.0.0.1: the API key never follows one to another origin; a same-origin
// redirect is followed a bounded number of times, each counted.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { BadResponseError, FdqClient, type FdqError } from "../../../src/api";

const KEY = "REDIRECT-TEST-KEY";
const NOW = Date.parse("2024-03-15T15:00:00Z");
const RECORD = {
  ticker: "AAPL",
  year: 2023,
  period: 5,
  periodtype: "ANNUAL",
  datapoint: "ROIC",
  datavalue: "0.12",
};

interface Server {
  origin: string;
  seen: { url: string; key: string | undefined }[];
  close: () => Promise<void>;
}

async function serve(
  answer: (
    url: string,
    origin: string,
  ) => { status: number; headers?: Record<string, string>; body?: unknown },
): Promise<Server> {
  const seen: Server["seen"] = [];
  let origin = "";
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", key: req.headers["x-api-key"] as string | undefined });
    const a = answer(req.url ?? "", origin);
    res.writeHead(a.status, { "content-type": "application/json", ...a.headers });
    res.end(a.body === undefined ? "" : JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const envelope = { statusCode: 200, headers: {}, body: JSON.stringify({ results: [RECORD] }) };
const ask = (baseUrl: string) => {
  const client = new FdqClient({
    baseUrl,
    apiKey: KEY,
    now: () => NOW,
    retry: { attempts: 1 },
    billing: "per-datapoint",
    // These servers redirect every path: the one data request's redirects are counted, without the coverage
    // list the default rule would ask (and be redirected for) first.
    coverageCheck: "after",
  });
  const result = client.datapoint({ ticker: "AAPL", dataset: "metrics/roic", name: "ROIC", year: 2023 }).then(
    (r) => r.value,
    (e: unknown) => e as FdqError,
  );
  return { client, result };
};

describe("redirects", () => {
  it("never sends the key to another origin: a BadResponse names that origin", async () => {
    const elsewhere = await serve(() => ({ status: 200, body: envelope }));
    const service = await serve(() => ({
      status: 302,
      headers: { location: `${elsewhere.origin}/v1/steal` },
    }));
    const { client, result } = ask(`${service.origin}/v1`);
    const error = await result;
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as FdqError).message).toContain(`a redirect to ${elsewhere.origin}, another origin`);
    expect((error as FdqError).message).not.toContain(KEY);
    expect(elsewhere.seen).toEqual([]);
    await Promise.all([service.close(), elsewhere.close()]);
    await client.close();
  });

  it("follows a same-origin redirect and counts it", async () => {
    const service = await serve((url) =>
      url.startsWith("/v1/moved")
        ? { status: 200, body: envelope }
        : { status: 301, headers: { location: "/v1/moved" } },
    );
    const { client, result } = ask(`${service.origin}/v1`);
    expect(await result).toBe(0.12);
    expect(client.stats()).toMatchObject({ requestsSent: 2, redirects: 1 });
    expect(service.seen.map((s) => s.key)).toEqual([KEY, KEY]);
    await service.close();
    await client.close();
  });

  it("stops a redirect loop after 3 hops, every request counted", async () => {
    const service = await serve(() => ({ status: 307, headers: { location: "/v1/again" } }));
    const { client, result } = ask(`${service.origin}/v1`);
    const error = await result;
    expect((error as FdqError).message).toContain("more than 3 redirects");
    expect(service.seen).toHaveLength(4);
    expect(client.stats()).toMatchObject({ requestsSent: 4, redirects: 3 });
    await service.close();
    await client.close();
  });
});
