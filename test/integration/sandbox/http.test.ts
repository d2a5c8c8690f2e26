// The HTTP surface: API key, CORS, envelope forms, unknown paths and methods, path encoding,
// requests Node's parser rejects, fault injection, the concurrency cap, a burst, and random requests that
// never get a 500 or a body that is not JSON.
import { GATEWAY_MESSAGES, SPEC_ERRORS } from "../../../src/catalog";
import { DEMO_API_KEY } from "../../../src/sandbox/demo";
import { Rng } from "../../../src/sandbox/prng";
import { Client, pool, rawRequest, start, statusClient, type Reply } from "./helpers";

const ORIGIN = "https://localhost:3000";

let client: Client;
beforeAll(async () => {
  client = await start({ apiKeys: ["extra-key-1", "extra-key-2"] });
});
afterAll(() => client.sandbox.close());

const as = (key: string): Client => new Client(client.sandbox, key);

describe("x-api-key", () => {
  it("accepts the demo key and every --api-key key", async () => {
    for (const key of [DEMO_API_KEY, "extra-key-1", "extra-key-2"])
      expect((await as(key).get("/datapoint/ROIC")).status).toBe(200);
  });

  it("a missing, empty or unknown key is 403 Forbidden, before routing", async () => {
    const forbidden: [number, string] = [403, GATEWAY_MESSAGES.forbidden];
    const res = await fetch(`${client.sandbox.baseUrl}/datapoint/ROIC`);
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual(forbidden);
    expect(await as("").error("/datapoint/ROIC")).toEqual(forbidden);
    expect(await as("wrong").error("/datapoint/ROIC")).toEqual(forbidden);
    expect(await as(DEMO_API_KEY.toUpperCase()).error("/datapoint/ROIC")).toEqual(forbidden);
    expect(await as("wrong").error("/no/such/path")).toEqual(forbidden);
  });
});

describe("CORS for the task pane", () => {
  it("answers a preflight without a key, allowing GET and the three request headers", async () => {
    const res = await fetch(`${client.sandbox.baseUrl}/metrics/roic/AAPL?year=2024`, {
      method: "OPTIONS",
      headers: {
        Origin: ORIGIN,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-api-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("access-control-allow-headers")?.split(",").sort()).toEqual([
      "accept",
      "content-type",
      "x-api-key",
    ]);
  });

  it("sends Access-Control-Allow-Origin on every answer, errors included", async () => {
    for (const [key, path, status] of [
      [DEMO_API_KEY, "/datapoint/ROIC", 200],
      [DEMO_API_KEY, "/datapoint/NOPE", 404],
      [DEMO_API_KEY, "/metrics/roic/AAPL", 400],
      [DEMO_API_KEY, "/nowhere", 404],
      ["wrong", "/datapoint/ROIC", 403],
    ] as const) {
      const res = await fetch(`${client.sandbox.baseUrl}${path}`, {
        headers: { Origin: ORIGIN, "x-api-key": key },
      });
      expect([path, res.status, res.headers.get("access-control-allow-origin")]).toEqual([
        path,
        status,
        ORIGIN,
      ]);
    }
  });
});

describe("envelope", () => {
  it("by default body is a JSON-encoded string of {results} (production form)", async () => {
    const reply = await client.get("/datapoint/ROIC");
    expect(reply.headers.get("content-type")).toContain("application/json");
    const env = reply.json as { statusCode: number; headers: Record<string, string>; body: unknown };
    expect(Object.keys(env)).toEqual(["statusCode", "headers", "body"]);
    expect(env.statusCode).toBe(200);
    expect(env.headers).toEqual({ "Content-Type": "application/json" });
    expect(typeof env.body).toBe("string");
    expect(Object.keys(JSON.parse(env.body as string) as object)).toEqual(["results"]);
  });

  it("bodyAsObject serves body as an object with the same results", async () => {
    const objects = await start({ bodyAsObject: true });
    try {
      const env = (await objects.get("/datapoint/ROIC")).json as { body: { results: unknown } };
      expect(env.body.results).toEqual(await client.results("/datapoint/ROIC"));
    } finally {
      await objects.sandbox.close();
    }
  });

  it("error bodies are {message} objects, not the envelope", async () => {
    const reply = await client.get("/datapoint/NOPE");
    expect(reply.json).toEqual({ message: SPEC_ERRORS.DataPointNotFound.message });
  });
});

describe("paths and methods", () => {
  it("an unknown path is 404 Not Found, also without /v1 and for a dataset path without ticker", async () => {
    for (const path of [
      "/nowhere",
      "/metrics/roic",
      "/metrics/nope/AAPL?year=2024",
      "/coverage",
      "/ratings/AAPL",
    ])
      expect(await client.error(path)).toEqual([404, "Not Found"]);
    const res = await fetch(`http://127.0.0.1:${client.sandbox.port}/datapoint`, {
      headers: { "x-api-key": DEMO_API_KEY },
    });
    expect(res.status).toBe(404);
  });

  it("methods other than GET are 405 Method Not Allowed with Allow: GET, OPTIONS", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const reply = await client.get("/datapoint/ROIC", { method });
      expect([method, reply.status, reply.json]).toEqual([method, 405, { message: "Method Not Allowed" }]);
      expect(reply.headers.get("allow")).toBe("GET, OPTIONS");
    }
  });

  it("a trailing slash is ignored", async () => {
    expect(await client.results("/datapoint/ROIC/")).toEqual(await client.results("/datapoint/ROIC"));
    expect(await client.results("/metrics/roic/AAPL/?year=2024")).toEqual(
      await client.results("/metrics/roic/AAPL?year=2024"),
    );
  });

  it("percent-encoded segments are decoded once: ENRN%3A1 is ENRN:1, %2F stays inside the segment", async () => {
    expect(await client.results("/coverage/inactive/ENRN%3A1")).toEqual(
      await client.results("/coverage/inactive/ENRN:1"),
    );
    expect(await client.results("/ratings/component/BF%2EB")).toEqual(
      await client.results("/ratings/component/BF.B"),
    );
    expect(await client.error("/datapoint/..%2Fcoverage%2Fstock")).toEqual([
      404,
      SPEC_ERRORS.DataPointNotFound.message,
    ]);
    expect(await client.error("/coverage/stock/..%2F..%2Fdatapoint")).toEqual([
      400,
      SPEC_ERRORS.DataNotFound.message,
    ]);
  });
});

describe("requests the HTTP parser rejects answer JSON too", () => {
  const TOO_LARGE = { message: "Request Header Fields Too Large" };
  const BAD_REQUEST = { message: "Bad Request" };
  /** The three things every such answer carries besides its status. */
  const shape = (r: Reply) => [r.status, r.json, r.headers.get("content-type")];

  it("a URL over the 16 KiB limit of request line and headers is 431 with a message and CORS", async () => {
    const reply = await client.get(`/datapoint/${"A".repeat(20 * 1024)}`, { headers: { Origin: ORIGIN } });
    expect(shape(reply)).toEqual([431, TOO_LARGE, "application/json"]);
    expect(reply.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    // Just under the limit the request reaches the app and gets its ordinary answer.
    expect(await client.error(`/datapoint/${"A".repeat(15 * 1024)}`)).toEqual([
      404,
      SPEC_ERRORS.DataPointNotFound.message,
    ]);
  });

  it("headers over the limit are 431 as well", async () => {
    const reply = await rawRequest(
      client.sandbox.port,
      `GET /v1/datapoint/ROIC HTTP/1.1\r\nHost: x\r\nx-api-key: ${DEMO_API_KEY}\r\nX-Big: ${"b".repeat(17_000)}\r\n\r\n`,
    );
    expect(shape(reply)).toEqual([431, TOO_LARGE, "application/json"]);
  });

  it("a malformed request line or header is 400 Bad Request, echoing a local Origin", async () => {
    for (const head of [
      "GARBAGE",
      "GET",
      "GET /v1/datapoint/ROIC HTTP/9.9",
      "GET /v1/data point/ROIC HTTP/1.1",
      "GET /v1/datapoint/ROIC HTTP/1.1\r\nHost x",
    ]) {
      const reply = await rawRequest(client.sandbox.port, `${head}\r\nOrigin: http://127.0.0.1:5173\r\n\r\n`);
      expect([head, ...shape(reply)]).toEqual([head, 400, BAD_REQUEST, "application/json"]);
      expect(reply.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:5173");
    }
  });

  it("a foreign Origin is never echoed: the answer names the task pane's origin", async () => {
    const reply = await rawRequest(client.sandbox.port, "GARBAGE\r\nOrigin: https://evil.example\r\n\r\n");
    expect([reply.status, reply.headers.get("access-control-allow-origin")]).toEqual([400, ORIGIN]);
  });
});

describe("fault injection", () => {
  const withFaults = async (faults: object, run: (c: Client) => Promise<void>): Promise<void> => {
    const c = await start({ faults });
    try {
      await run(c);
    } finally {
      await c.sandbox.close();
    }
  };

  it("is off by default", async () => {
    await pool(Array.from({ length: 100 }), 10, async () => {
      expect((await client.get("/datapoint/ROIC")).status).toBe(200);
    });
  });

  it("rate429 answers 429 Too Many Requests with Retry-After", async () => {
    await withFaults({ rate429: 1, retryAfterSeconds: 7 }, async (c) => {
      const reply = await c.get("/datapoint/ROIC");
      expect([reply.status, reply.json, reply.headers.get("retry-after")]).toEqual([
        429,
        { message: GATEWAY_MESSAGES.throttled },
        "7",
      ]);
    });
  });

  it("rate503 answers 503 Service Unavailable", async () => {
    await withFaults({ rate503: 1 }, async (c) => {
      expect(await c.error("/datapoint/ROIC")).toEqual([503, "Service Unavailable"]);
    });
  });

  it("dropRate destroys the connection without an answer", async () => {
    await withFaults({ dropRate: 1 }, async (c) => {
      await expect(
        fetch(`${c.sandbox.baseUrl}/datapoint/ROIC`, { headers: { "x-api-key": DEMO_API_KEY } }),
      ).rejects.toThrow();
      expect(c.sandbox.stats().requests).toBe(1);
    });
  });

  it("malformedRate turns 200 bodies into truncated or non-JSON text", async () => {
    await withFaults({ malformedRate: 1 }, async (c) => {
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${c.sandbox.baseUrl}/datapoint/ROIC`, {
          headers: { "x-api-key": DEMO_API_KEY },
        });
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(() => JSON.parse(text)).toThrow();
      }
      // Errors stay well-formed: only successful answers are damaged.
      expect(await c.error("/datapoint/NOPE")).toEqual([404, SPEC_ERRORS.DataPointNotFound.message]);
    });
  });

  it("shares follow the configured rates over many requests", async () => {
    await withFaults({ rate429: 0.2, rate503: 0.1 }, async (c) => {
      const counts = new Map<number, number>();
      const http = statusClient(c.sandbox, c.key, 1);
      try {
        for (let i = 0; i < 400; i++) {
          const status = await http.status("/datapoint/ROIC");
          counts.set(status, (counts.get(status) ?? 0) + 1);
        }
      } finally {
        http.close();
      }
      expect(counts.get(429)).toBeGreaterThan(50);
      expect(counts.get(429)).toBeLessThan(110);
      expect(counts.get(503)).toBeGreaterThan(20);
      expect(counts.get(503)).toBeLessThan(65);
      expect([...counts.keys()].sort()).toEqual([200, 429, 503]);
    });
  });

  it("latencyMs delays every answer and maxConcurrent makes excess requests wait their turn", async () => {
    const c = await start({ latencyMs: 50, maxConcurrent: 2 });
    try {
      const t0 = Date.now();
      await Promise.all(Array.from({ length: 6 }, () => c.get("/datapoint/ROIC")));
      // Six requests, two at a time, 50 ms each: at least three rounds.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(145);
      expect(c.sandbox.stats().requests).toBe(6);
    } finally {
      await c.sandbox.close();
    }
  });
});

describe("load and robustness", () => {
  it("answers a burst of 2,000 requests, 50 at a time, without an error", async () => {
    const paths = [
      "/datapoint/ROIC",
      "/metrics/roic/AAPL?year=2024",
      "/ratings/component/QQQ",
      "/coverage/stock/MSFT",
    ];
    // node:http with keep-alive, 50 sockets: the same burst at a fraction of fetch's CPU in the test process.
    const http = statusClient(client.sandbox);
    let failures = 0;
    const before = client.sandbox.stats().requests;
    try {
      await pool(
        Array.from({ length: 2000 }, (_, i) => paths[i % paths.length]!),
        50,
        async (path) => {
          if ((await http.status(path)) !== 200) failures++;
        },
      );
    } finally {
      http.close();
    }
    expect(failures).toBe(0);
    expect(client.sandbox.stats().requests - before).toBe(2000);
    // A few seconds alone; minutes when the run's other processes (Chromium, webpack) hold both cores.
  }, 120_000);

  it("random paths, a 20 KB path and malformed request lines always get JSON and never a 500", async () => {
    const rng = new Rng(7, "fuzz");
    const parts = [
      "v1",
      "metrics",
      "roic",
      "AAPL",
      "coverage",
      "stock",
      "sector",
      "datapoint",
      "ratings",
      "component",
      "fundamentals",
      "adjusted",
      "%2F",
      "..",
      "%00",
      "%E0%A4%A",
      "ENRN:1",
      "BF.B",
      "x".repeat(300),
      "%C3%A9",
      "TECHNOLOGYSEC",
    ];
    const params = [
      "year=2024",
      "year=abc",
      "quarter=9",
      "ttm=2",
      "datapoint=ROIC",
      "datapoint=%00",
      "prior_year=-3",
      "prior_year=1",
      "year=99999999999999999999",
      "&&",
      "=",
      "datapoint",
      "year=2024&year=2023",
    ];
    const statuses = new Set<number>();
    /** Every answer but a 200 is an object with a string `message` (replies that are not JSON fail to parse). */
    const check = (label: string, reply: Reply): void => {
      statuses.add(reply.status);
      const message = (reply.json as { message?: unknown } | undefined)?.message;
      if (reply.status !== 200)
        expect([label, reply.status, typeof message]).toEqual([label, reply.status, "string"]);
    };
    await pool(Array.from({ length: 400 }), 20, async () => {
      const path = Array.from({ length: rng.int(1, 5) }, () => rng.pick(parts)).join("/");
      const query = Array.from({ length: rng.int(0, 3) }, () => rng.pick(params)).join("&");
      const method = rng.pick(["GET", "GET", "GET", "POST", "DELETE"]);
      const caller = rng.next() < 0.1 ? as("wrong") : client;
      const reply = await caller.get(`/${path}?${query}`, { method });
      check(`${method} /${path}?${query}`, reply);
      expect([method, path, query, typeof reply.json]).toEqual([method, path, query, "object"]);
      expect([200, 400, 403, 404, 405]).toContain(reply.status);
    });
    const long = rng
      .pick(parts)
      .repeat(20 * 1024)
      .slice(0, 20 * 1024);
    check("20 KB path", await client.get(`/metrics/roic/${long}?year=2024`));
    for (const line of ["GARBAGE", "GET /v1/metrics/roic/AAPL?year=2024 HTTP/1.1 extra", "\u00ff\u00fe"])
      check(line, await rawRequest(client.sandbox.port, `${line}\r\nHost: x\r\n\r\n`));
    expect([...statuses].sort()).toEqual([200, 400, 403, 404, 405, 431]);
  });
});
