// `cors: "off"` (--cors off, wire-notes 17): the sandbox behaves like a service without CORS support. No answer
// carries a CORS header (success, every error, /__usage, the parser's own 400/431), a preflight is refused
// with 403 Forbidden, and plain GETs (the CLI's) work as before.
import { GATEWAY_MESSAGES } from "../../../src/catalog";
import { startSandbox, type SandboxOptions } from "../../../src/sandbox";
import { DEMO_API_KEY } from "../../../src/sandbox/demo";
import { Client, rawRequest, start, type Reply } from "./helpers";

/** Both origins a browser could send: the task pane's (echoed in permissive mode) and a foreign one. */
const ORIGINS = ["https://localhost:3000", "https://excel.officeapps.live.com"];

/** The CORS headers of an answer: every Access-Control-* header, and Vary when it names Origin. */
function corsHeaders(headers: Headers): string[] {
  const found: string[] = [];
  headers.forEach((value, name) => {
    if (name.toLowerCase().startsWith("access-control-")) found.push(`${name}: ${value}`);
    if (name.toLowerCase() === "vary" && /origin|access-control/i.test(value)) found.push(`vary: ${value}`);
  });
  return found;
}

const forbidden = { message: GATEWAY_MESSAGES.forbidden };

async function send(c: Client, path: string, init: RequestInit = {}, origin = ORIGINS[0]): Promise<Reply> {
  return c.get(path, { ...init, headers: { Origin: origin!, ...(init.headers as Record<string, string>) } });
}

/** A fresh off-mode sandbox for options that change every answer (quota, faults, clock). */
async function withOff(opts: SandboxOptions, test: (c: Client) => Promise<void>): Promise<void> {
  const c = await start({ cors: "off", ...opts });
  try {
    await test(c);
  } finally {
    await c.sandbox.close();
  }
}

let off: Client;
beforeAll(async () => {
  off = await start({ cors: "off" });
});
afterAll(() => off.sandbox.close());

const rootOf = (c: Client): string => c.sandbox.baseUrl.replace(/\/v1$/, "");

describe('cors: "off": no CORS header on any answer', () => {
  it("plain GETs keep working: 200 with the envelope, and HEAD, without CORS headers", async () => {
    for (const origin of [...ORIGINS, undefined]) {
      const init = origin ? { headers: { Origin: origin } } : {};
      const reply = await off.get("/datapoint/ROIC", init);
      expect(reply.status).toBe(200);
      expect((reply.json as { statusCode: number }).statusCode).toBe(200);
      expect(corsHeaders(reply.headers)).toEqual([]);
    }
    const data = await send(off, "/metrics/roic/AAPL?year=2024");
    expect([data.status, corsHeaders(data.headers)]).toEqual([200, []]);
    const head = await fetch(`${off.sandbox.baseUrl}/datapoint/ROIC`, {
      method: "HEAD",
      headers: { "x-api-key": DEMO_API_KEY, Origin: ORIGINS[0]! },
    });
    expect([head.status, corsHeaders(head.headers)]).toEqual([200, []]);
  });

  it("errors of the key check, the routes and the method check carry none either", async () => {
    const wrong = new Client(off.sandbox, "wrong");
    const keyless = new Client(off.sandbox, "");
    for (const [c, path, init, status] of [
      [wrong, "/datapoint/ROIC", {}, 403],
      [keyless, "/datapoint/ROIC", {}, 403],
      [off, "/datapoint/NOPE", {}, 404],
      [off, "/metrics/roic/AAPL", {}, 400],
      [off, "/nowhere", {}, 404],
      [off, "/datapoint/ROIC", { method: "DELETE" }, 405],
    ] as const) {
      for (const origin of ORIGINS) {
        const reply = await send(c, path, init, origin);
        expect([path, reply.status, corsHeaders(reply.headers)]).toEqual([path, status, []]);
      }
    }
    const notV1 = await fetch(`${rootOf(off)}/datapoint/ROIC`, {
      headers: { "x-api-key": DEMO_API_KEY, Origin: ORIGINS[0]! },
    });
    expect([notV1.status, corsHeaders(notV1.headers)]).toEqual([404, []]);
  });

  it("a 405 does not offer OPTIONS: Allow: GET, HEAD", async () => {
    const reply = await send(off, "/datapoint/ROIC", { method: "POST" });
    expect([reply.status, reply.headers.get("allow"), reply.json]).toEqual([
      405,
      "GET, HEAD",
      { message: "Method Not Allowed" },
    ]);
  });

  it("GET /__usage answers without CORS headers", async () => {
    const res = await fetch(`${rootOf(off)}/__usage`, { headers: { Origin: ORIGINS[0]! } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(((await res.json()) as { quota: unknown }).quota).toBeNull();
  });

  it("the answers written before the app (431, 400) carry none either", async () => {
    const long = await send(off, `/datapoint/${"A".repeat(20 * 1024)}`);
    expect([long.status, long.json, corsHeaders(long.headers)]).toEqual([
      431,
      { message: "Request Header Fields Too Large" },
      [],
    ]);
    const bad = await rawRequest(off.sandbox.port, "GARBAGE\r\nOrigin: https://localhost:3000\r\n\r\n");
    expect([bad.status, bad.json, corsHeaders(bad.headers)]).toEqual([400, { message: "Bad Request" }, []]);
  });

  it("a spent quota: 429 Limit Exceeded without CORS headers", async () => {
    await withOff({ quota: 0 }, async (c) => {
      const reply = await send(c, "/datapoint/ROIC");
      expect([reply.status, reply.json, corsHeaders(reply.headers)]).toEqual([
        429,
        { message: "Limit Exceeded" },
        [],
      ]);
    });
  });

  it("injected faults: 429 Too Many Requests (Retry-After, not exposed) and 503, without CORS headers", async () => {
    await withOff({ faults: { rate429: 1 } }, async (c) => {
      const reply = await send(c, "/datapoint/ROIC");
      expect([reply.status, reply.json, corsHeaders(reply.headers)]).toEqual([
        429,
        { message: GATEWAY_MESSAGES.throttled },
        [],
      ]);
      expect(reply.headers.get("retry-after")).toBe("1");
    });
    await withOff({ faults: { rate503: 1 } }, async (c) => {
      const reply = await send(c, "/metrics/roic/AAPL?year=2024");
      expect([reply.status, reply.json, corsHeaders(reply.headers)]).toEqual([
        503,
        { message: "Service Unavailable" },
        [],
      ]);
    });
  });

  it("the refresh window: 503 without CORS headers", async () => {
    // 10:10 UTC on 15 July 2025 is 05:10 CDT.
    await withOff({ refreshWindow: true, now: () => new Date("2025-07-15T10:10:00Z") }, async (c) => {
      const reply = await send(c, "/datapoint/ROIC");
      expect([reply.status, reply.json, corsHeaders(reply.headers)]).toEqual([
        503,
        { message: "Service Unavailable" },
        [],
      ]);
    });
  });
});

describe('cors: "off": preflights', () => {
  const preflight = (url: string, extra: Record<string, string> = {}): Promise<Response> =>
    fetch(url, {
      method: "OPTIONS",
      headers: {
        Origin: ORIGINS[0]!,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-api-key",
        ...extra,
      },
    });

  it("are refused with 403 Forbidden and no CORS header, on every path", async () => {
    for (const url of [
      `${off.sandbox.baseUrl}/metrics/roic/AAPL?year=2024`,
      `${off.sandbox.baseUrl}/datapoint/ROIC`,
      `${off.sandbox.baseUrl}/nowhere`,
      `${rootOf(off)}/__usage`,
    ]) {
      const res = await preflight(url);
      expect([url, res.status, await res.json(), corsHeaders(res.headers)]).toEqual([
        url,
        403,
        forbidden,
        [],
      ]);
    }
  });

  it("are refused even with a valid key, and without Access-Control-Request-Headers", async () => {
    const url = `${off.sandbox.baseUrl}/datapoint/ROIC`;
    for (const res of [
      await preflight(url, { "x-api-key": DEMO_API_KEY }),
      await fetch(url, {
        method: "OPTIONS",
        headers: { Origin: ORIGINS[1]!, "Access-Control-Request-Method": "GET" },
      }),
    ])
      expect([res.status, await res.json(), corsHeaders(res.headers)]).toEqual([403, forbidden, []]);
  });

  it("a keyless OPTIONS that is no preflight is a keyless request: 403 Forbidden", async () => {
    const res = await fetch(`${off.sandbox.baseUrl}/datapoint/ROIC`, { method: "OPTIONS" });
    expect([res.status, await res.json(), corsHeaders(res.headers)]).toEqual([403, forbidden, []]);
  });
});

describe('cors: "permissive" (the default)', () => {
  it("is what an explicit permissive gives: preflight 204 and Access-Control-Allow-Origin", async () => {
    const c = await start({ cors: "permissive" });
    try {
      const pre = await fetch(`${c.sandbox.baseUrl}/datapoint/ROIC`, {
        method: "OPTIONS",
        headers: { Origin: ORIGINS[0]!, "Access-Control-Request-Method": "GET" },
      });
      expect([pre.status, pre.headers.get("access-control-allow-origin")]).toEqual([204, ORIGINS[0]]);
      const reply = await send(c, "/datapoint/ROIC");
      expect([reply.status, reply.headers.get("access-control-allow-origin")]).toEqual([200, ORIGINS[0]]);
    } finally {
      await c.sandbox.close();
    }
  });

  it("startSandbox rejects any other value, naming the choices", async () => {
    await expect(startSandbox({ cors: "none" as "off" })).rejects.toThrow(
      'cors must be "permissive" or "off", got "none"',
    );
  });
});
