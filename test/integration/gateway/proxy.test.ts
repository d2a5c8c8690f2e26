// The gateway in-process in front of a sandbox: pass-through keys, one day's answers per account, what is
// never kept, the gateway's own refusals, the ledger and the stop after "Limit Exceeded".
import { existsSync } from "node:fs";
import { filesUnder, startRig, tempDir, type Rig } from "./helpers";

const ROIC = "/v1/metrics/roic/AAPL?datapoint=ROIC&year=2023";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("fdq serve: /v1 pass-through", () => {
  test("proxies a datapoint: the answer equals the sandbox's, and the same request again is a hit", async () => {
    rig = await startRig();
    const direct = await fetch(`${rig.sandbox.baseUrl}/metrics/roic/AAPL?datapoint=ROIC&year=2023`, {
      headers: { "x-api-key": rig.sandbox.demoKey },
    });
    const before = rig.upstream();
    const res = await rig.get(ROIC);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await direct.text());
    // Another parameter order and case is the same request (RequestKey): no upstream request.
    const again = await rig.get("/v1/metrics/roic/aapl?year=2023&datapoint=roic");
    expect(again.status).toBe(200);
    expect(rig.upstream() - before).toBe(1);
    // Access-log lines are JSON; start-up notes (e.g. "no build" on a fresh clone) are not.
    const log = rig.lines
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { cache: string; units: number; status: number });
    expect(log.filter((l) => l.status === 200).map((l) => [l.cache, l.units])).toEqual([
      ["miss", 1],
      ["hit", 0],
    ]);
  });

  test("N identical concurrent requests go upstream once", async () => {
    rig = await startRig({ latencyMs: 100 });
    const r = rig;
    const answers = await Promise.all(Array.from({ length: 8 }, () => r.get(ROIC)));
    const texts = await Promise.all(answers.map((a) => a.text()));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(texts).size).toBe(1);
    expect(rig.upstream()).toBe(1);
  });

  test("the spec's 'does not exist' answers are kept; a path that is no request of the service is the gateway's 404", async () => {
    rig = await startRig();
    const missing = "/v1/metrics/roic/AAPL?datapoint=NOT_A_DATAPOINT&year=2023";
    const first = await rig.get(missing);
    expect(first.status).toBe(404);
    const body = await first.text();
    expect((await rig.get(missing)).status).toBe(404);
    expect(rig.upstream()).toBe(1);
    expect(JSON.parse(body)).toEqual({ message: "The requested datapoint was not found." });
    const unknown = await rig.get("/v1/not/a/route");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      message:
        "Not Found: the path is not a request of the FDQ service (see its /v1 endpoints) (from the FDQ gateway)",
    });
    expect(rig.upstream()).toBe(1);
  });

  test("503 and 429 answers are relayed with their message and never kept", async () => {
    rig = await startRig({ faults: { rate503: 1 } });
    for (let i = 0; i < 2; i++) {
      const res = await rig.get(ROIC);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: "Service Unavailable" });
    }
    expect(rig.upstream()).toBe(2);
    await rig.close();
    rig = await startRig({ faults: { rate429: 1 } });
    for (let i = 0; i < 2; i++) {
      const res = await rig.get(ROIC);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(await res.json()).toEqual({ message: "Too Many Requests" });
    }
    expect(rig.upstream()).toBe(2);
  });

  test("a missing key gets 403 from the gateway and nothing goes upstream", async () => {
    rig = await startRig();
    const res = await rig.get(ROIC, { key: null });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "Forbidden: no API key (from the FDQ gateway)" });
    expect(rig.upstream()).toBe(0);
  });

  test("a wrong key is the service's 403; another account does not see the first one's answers", async () => {
    rig = await startRig({ apiKeys: ["second-account-key"] });
    expect((await rig.get(ROIC)).status).toBe(200);
    expect((await rig.get(ROIC, { key: "second-account-key" })).status).toBe(200);
    expect(rig.upstream()).toBe(2);
    const wrong = await rig.get(ROIC, { key: "wrong-key" });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ message: "Forbidden" });
  });

  test("POST is refused with 405 by the gateway; OPTIONS is answered without upstream", async () => {
    rig = await startRig();
    const post = await rig.get(ROIC, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await rig.get(ROIC, { method: "OPTIONS", key: null })).status).toBe(204);
    expect(rig.upstream()).toBe(0);
    const head = await rig.get(ROIC, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(rig.upstream()).toBe(1);
    expect((await rig.get(ROIC)).status).toBe(200);
    expect(rig.upstream()).toBe(1);
  });

  test("an upstream that does not answer in time is a 504 from the gateway", async () => {
    rig = await startRig({ latencyMs: 1_000 }, { timeoutMs: 200 });
    const res = await rig.get(ROIC);
    expect(res.status).toBe(504);
    expect((await res.json()) as unknown).toEqual({
      message: "The FDQ service did not answer within 0.2 s (from the FDQ gateway)",
    });
  });
});

describe("fdq serve: the account's ledger and quota", () => {
  test("GET /usage answers the account's units; after 'Limit Exceeded' the account stops at once", async () => {
    rig = await startRig({ quota: 1 });
    expect((await rig.get(ROIC)).status).toBe(200);
    const spent = await rig.get("/v1/metrics/roic/MSFT?datapoint=ROIC&year=2023");
    expect(spent.status).toBe(429);
    expect(await spent.json()).toEqual({ message: "Limit Exceeded" });
    const upstream = rig.upstream();
    const stopped = await rig.get("/v1/metrics/roic/NFLX?datapoint=ROIC&year=2023");
    expect(stopped.status).toBe(429);
    expect(((await stopped.json()) as { message: string }).message).toMatch(
      /^Limit Exceeded \(from the FDQ gateway\)/,
    );
    expect(rig.upstream()).toBe(upstream);
    // The day's answers are still served.
    expect((await rig.get(ROIC)).status).toBe(200);
    const usage = (await (await rig.get("/usage")).json()) as Record<string, unknown>;
    expect(usage).toMatchObject({ units: 1, byDataset: { "metrics/roic": 1 }, exhausted: true });
    expect((await rig.get("/usage", { key: null })).status).toBe(403);
  });

  test("an all-datapoints answer costs one unit per record", async () => {
    rig = await startRig();
    const res = await rig.get("/v1/metrics/roic/AAPL?year=2023");
    expect(res.status).toBe(200);
    const usage = (await (await rig.get("/usage")).json()) as { units: number };
    expect(usage.units).toBeGreaterThan(1);
    expect(usage.units).toBe(rig.sandbox.usage());
  });
});

describe("fdq serve: the embedded store", () => {
  test("the day's answers and the ledger survive a restart; the key is in no file and no log line", async () => {
    const store = tempDir();
    rig = await startRig({}, { store });
    expect((await rig.get(ROIC)).status).toBe(200);
    expect((await rig.get("/v1/metrics/roic/AAPL?datapoint=NOT_A_DATAPOINT&year=2023")).status).toBe(404);
    const { sandbox } = rig;
    const lines = rig.lines;
    await rig.gateway.close();
    const { startGateway } = await import("../../../src/gateway");
    const gateway = await startGateway({
      upstream: sandbox.baseUrl,
      port: 0,
      store,
      log: (l) => lines.push(l),
      onWarning: (l) => lines.push(l),
    });
    rig = undefined;
    const get = (p: string): Promise<Response> =>
      fetch(`${gateway.url}${p}`, { headers: { "x-api-key": sandbox.demoKey } });
    try {
      const before = sandbox.stats().requests;
      expect((await get(ROIC)).status).toBe(200);
      expect((await get("/v1/metrics/roic/AAPL?datapoint=NOT_A_DATAPOINT&year=2023")).status).toBe(404);
      expect(sandbox.stats().requests).toBe(before);
      expect(((await (await get("/usage")).json()) as { units: number }).units).toBe(1);
    } finally {
      await gateway.close();
      await sandbox.close();
    }

    const files = filesUnder(store);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const { file, text } of files) {
      expect(file).not.toContain(sandbox.demoKey);
      expect(text).not.toContain(sandbox.demoKey);
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(sandbox.demoKey);
  });
});

describe("fdq serve: the add-in and the gateway's own routes", () => {
  test("/healthz answers ok, with the upstream slots' figures", async () => {
    rig = await startRig();
    const res = await rig.get("/healthz", { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      upstream: { budget: 64, perAccount: 6, inFlight: 0, waiting: 0, accounts: 0, share: 6, byAccount: [] },
    });
  });

  test("the manifest names the public URL; it and functions.json allow any origin", async () => {
    const dist = tempDir();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      `${dist}/manifest.xml`,
      '<OfficeApp><SourceLocation DefaultValue="https://localhost:3000/taskpane.html"/>' +
        "<AppDomain>https://localhost:3000</AppDomain></OfficeApp>",
    );
    writeFileSync(`${dist}/functions.json`, '{"functions":[]}');
    writeFileSync(`${dist}/taskpane.html`, "<!doctype html><title>FDQ</title>");
    rig = await startRig({}, { distDir: dist, publicUrl: "https://fdq.example.com/" });
    const manifest = await rig.get("/manifest.xml", { key: null });
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get("access-control-allow-origin")).toBe("*");
    expect(await manifest.text()).toBe(
      '<OfficeApp><SourceLocation DefaultValue="https://fdq.example.com/taskpane.html"/>' +
        "<AppDomain>https://fdq.example.com</AppDomain></OfficeApp>",
    );
    const functions = await rig.get("/functions.json", { key: null });
    expect(functions.headers.get("access-control-allow-origin")).toBe("*");
    expect(await functions.json()).toEqual({ functions: [] });
    expect(await (await rig.get("/", { key: null })).text()).toContain("<title>FDQ</title>");
  });

  test("without a build, / answers 503 saying to run npm run build, and the start-up says it too", async () => {
    const dist = tempDir();
    rig = await startRig({}, { distDir: dist });
    expect(existsSync(`${dist}/manifest.xml`)).toBe(false);
    const res = await rig.get("/", { key: null });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toContain("npm run build");
    expect(rig.lines.some((l) => l.includes("npm run build") && !l.startsWith("{"))).toBe(true);
    expect((await rig.get("/healthz")).status).toBe(200);
    expect((await rig.get(ROIC)).status).toBe(200);
  });
});

describe("fdq serve: hygiene", () => {
  test("close lets a request in flight finish and refuses new ones", async () => {
    rig = await startRig({ latencyMs: 300 });
    const { gateway, sandbox } = rig;
    const inFlight = rig.get(ROIC);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = gateway.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    await closed;
    await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
    rig = undefined;
    await sandbox.close();
  });

  test("a redirect from upstream to another origin is refused, not followed with the key", async () => {
    const { createServer } = await import("node:http");
    let followed = 0;
    const other = createServer((_req, res) => {
      followed++;
      res.end("{}");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const elsewhere = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    const server = createServer((_req, res) => {
      res.writeHead(302, { Location: `${elsewhere}/elsewhere` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    rig = await startRig({}, { upstream: `http://127.0.0.1:${port}/v1` });
    const res = await rig.get(ROIC);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toContain(
      `a redirect to ${elsewhere}, another origin, where the API key is not sent`,
    );
    expect(followed).toBe(0);
    other.close();
    server.close();
  });
});
