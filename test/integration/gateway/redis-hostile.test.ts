// A Redis that someone else can write to (`fdq serve --redis`): a value planted or moved by anyone without
// the instances' secret is ignored and logged, never served; no key name holds a request path or a hash
// of the key that a guessed key could be checked against; a planted "quota spent" mark stops nothing; and
// --redis without the secret does not start.
import { Redis } from "ioredis";
import { accountTag } from "../../../src/api";
import { startGateway, type RunningGateway } from "../../../src/gateway";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { figure, printFigures } from "./figures";
import { tempDir } from "./helpers";
import { redisContents, redisServerBinary, startRedis, type RunningRedis } from "./redis-server";

const binary = redisServerBinary();
const describeRedis = binary === undefined ? describe.skip : describe;

const ROIC = "/v1/metrics/roic/AAPL?datapoint=ROIC&year=2023";
const SECRET = "hostile-redis-test-secret-0123456789abcdef";

let redis: RunningRedis | undefined;
let sandbox: RunningSandbox | undefined;
let gateways: RunningGateway[] = [];
afterEach(async () => {
  for (const g of gateways) await g.close();
  gateways = [];
  await sandbox?.close();
  sandbox = undefined;
  await redis?.kill();
  redis = undefined;
});
afterAll(() => printFigures("gateway, hostile Redis"));

async function instance(lines: string[]): Promise<RunningGateway> {
  const g = await startGateway({
    upstream: sandbox!.baseUrl,
    port: 0,
    store: tempDir(),
    redis: redis!.url,
    redisSecret: SECRET,
    log: (l) => lines.push(l),
    onWarning: (l) => lines.push(l),
  });
  gateways.push(g);
  return g;
}

const get = (g: RunningGateway, p: string): Promise<Response> =>
  fetch(`${g.url}${p}`, { headers: { "x-api-key": sandbox!.demoKey } });

describeRedis("fdq serve --redis: a Redis others can write to", () => {
  it("a planted or moved answer is ignored and logged; no key name holds a path or the key's plain hash", async () => {
    redis = await startRedis(binary!);
    sandbox = await startSandbox({ port: 0 });
    const a = await instance([]);
    const first = await get(a, ROIC);
    expect(first.status).toBe(200);
    const good = await first.text();
    expect((await get(a, "/v1/metrics/roic/MSFT?datapoint=ROIC&year=2023")).status).toBe(200);
    const contents = await redisContents(redis.url);
    const tag = accountTag(sandbox.demoKey);
    for (const { key } of contents) {
      expect(key).not.toMatch(/metrics|roic|AAPL|MSFT/i);
      expect(key).not.toContain(tag);
    }
    figure(
      "Redis key names after two answers",
      contents.map((c) => c.key.replace(/[0-9a-f]{32}/g, "<hmac>")).join(", "),
    );
    const answers = contents.filter((c) => c.key.includes(":answer:"));
    expect(answers).toHaveLength(2);
    const r = new Redis(redis.url);
    try {
      const planted = JSON.stringify({
        status: 200,
        contentType: "text/html",
        body: "<script>alert(1)</script>",
      });
      // Planted in both names; then the two answers swapped (each sealed, but for the other's name).
      for (const [value0, value1] of [
        [planted, planted],
        [answers[1]!.text, answers[0]!.text],
      ] as const) {
        const value = value0;
        await r.set(answers[0]!.key, value0);
        await r.set(answers[1]!.key, value1);
        // A new instance (its own local tier empty) reads only Redis.
        const lines: string[] = [];
        const b = await instance(lines);
        const before = sandbox.stats().requests;
        const res = await get(b, ROIC);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/json");
        expect(await res.text()).toBe(good);
        expect(sandbox.stats().requests).toBe(before + 1); // fetched again, not served from the forgery
        const warned = lines.filter((l) => l.includes("that no gateway with this secret wrote"));
        expect(warned.length).toBeGreaterThan(0);
        figure(
          value === planted ? "a planted text/html answer" : "an answer moved to another key",
          `ignored; log: ${warned[0]!.slice(0, 90)}...`,
        );
      }
    } finally {
      r.disconnect();
    }
  });

  it('a planted "quota spent" mark stops nothing; --redis without the secret does not start', async () => {
    redis = await startRedis(binary!);
    sandbox = await startSandbox({ port: 0 });
    const a = await instance([]);
    expect((await get(a, ROIC)).status).toBe(200);
    const ledger = (await redisContents(redis.url)).find((c) => c.key.includes(":ledger:"))!;
    const r = new Redis(redis.url);
    try {
      await r.hset(ledger.key, "exhausted", "1");
    } finally {
      r.disconnect();
    }
    const b = await instance([]);
    const res = await get(b, "/v1/metrics/roic/NFLX?datapoint=ROIC&year=2023");
    figure('a request after a planted "exhausted" mark', res.status);
    expect(res.status).toBe(200);
    await expect(
      startGateway({
        upstream: sandbox.baseUrl,
        port: 0,
        redis: redis.url,
        redisSecret: "",
        onWarning: () => {},
      }),
    ).rejects.toThrow(
      /--redis needs a secret shared by every gateway instance on that Redis in FDQ_GATEWAY_REDIS_SECRET/,
    );
  });
});
