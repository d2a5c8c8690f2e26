// Several gateway instances on one redis-server act as one (`fdq serve --redis`): `fdq eval` processes spread
// over two instances cost what one process costs, the ledger and its "Limit Exceeded" stop are shared, the
// account's upstream requests stay within one bound across both, the team's key is in no Redis key or
// value, and with Redis killed mid-run every cell is still right and the log says sharing is off, once.
import { centralDay, quotaResetsOn } from "../../../src/api";
import {
  GatewaySetupError,
  startGateway,
  tokenLine,
  type GatewayOptions,
  type RunningGateway,
} from "../../../src/gateway";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import type { Run } from "../cli/run-fdq";
import { startCountingProxy, type CountingProxy } from "./counting-proxy";
import { startRig, tempDir } from "./helpers";
import { evalFile, MODEL_FORMULAS, modelFile } from "./model";
import { freePort } from "../../support/free-port";
import { redisContents, redisServerBinary, startRedis, type RunningRedis } from "./redis-server";
import { writeFileSync } from "node:fs";
import path from "node:path";

const binary = redisServerBinary();
const describeRedis = binary === undefined ? describe.skip : describe;

const ROIC = "/v1/metrics/roic/AAPL?datapoint=ROIC&year=2023";
const offMessage = (port: number): string =>
  `fdq serve: Redis (127.0.0.1:${port}) is unreachable: answering without sharing (this instance's own ` +
  "answers, in-flight requests and ledger) until it is back.";
const backMessage = (port: number): string =>
  `fdq serve: Redis (127.0.0.1:${port}) is back: sharing answers, in-flight requests and the ledger again.`;

interface Instance {
  gateway: RunningGateway;
  lines: string[];
  get(p: string, key?: string): Promise<Response>;
}

/** The secret every instance of a test shares (FDQ_GATEWAY_REDIS_SECRET in production). */
const REDIS_SECRET = "test-secret-of-the-redis-instances-0123456789";

let redis: RunningRedis | undefined;
let sandbox: RunningSandbox | undefined;
let proxy: CountingProxy | undefined;
let instances: Instance[] = [];

afterEach(async () => {
  for (const i of instances) await i.gateway.close();
  instances = [];
  await proxy?.close();
  proxy = undefined;
  await sandbox?.close();
  sandbox = undefined;
  await redis?.kill();
  redis = undefined;
});

async function startInstance(o: Partial<GatewayOptions> & { upstream: string }): Promise<Instance> {
  const lines: string[] = [];
  const gateway = await startGateway({
    port: 0,
    store: tempDir(),
    redisSecret: REDIS_SECRET,
    log: (line) => lines.push(line),
    onWarning: (line) => lines.push(line),
    ...o,
  });
  const instance: Instance = {
    gateway,
    lines,
    get: (p, key) => fetch(`${gateway.url}${p}`, { headers: { "x-api-key": key ?? sandbox?.demoKey ?? "" } }),
  };
  instances.push(instance);
  return instance;
}

/** Two instances on the one Redis in front of the sandbox (or of `upstream`). */
async function twoInstances(o: Partial<GatewayOptions> = {}): Promise<[Instance, Instance]> {
  const upstream = o.upstream ?? (sandbox as RunningSandbox).baseUrl;
  const url = (redis as RunningRedis).url;
  return [
    await startInstance({ upstream, redis: url, ...o }),
    await startInstance({ upstream, redis: url, ...o }),
  ];
}

const until = async (check: () => boolean, ms: number): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
};

describeRedis("fdq serve --redis: instances on one Redis act as one", () => {
  const file = modelFile();
  let single: { stdout: string; requests: number; units: number };

  beforeAll(async () => {
    // One `fdq eval` process alone through one gateway without Redis: the reference for cost and cells.
    const rig = await startRig();
    const run = await evalFile(rig.gateway.url, rig.sandbox.demoKey, file);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").filter((l) => l.startsWith("=FDQ.")).length).toBe(MODEL_FORMULAS);
    single = { stdout: run.stdout, requests: rig.upstream(), units: rig.sandbox.usage() };
    await rig.close();
  }, 30_000);

  beforeEach(async () => {
    redis = await startRedis(binary as string);
  });

  test("ten fdq eval processes over two instances cost what one process costs; /usage is the same on both", async () => {
    sandbox = await startSandbox({ port: 0 });
    const [a, b] = await twoInstances();
    const outs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        evalFile((i % 2 ? b : a).gateway.url, (sandbox as RunningSandbox).demoKey, file),
      ),
    );
    expect(outs.map((o) => o.code)).toEqual(Array(10).fill(0));
    for (const out of outs) {
      expect(out.stderr).toBe("");
      expect(out.stdout).toBe(single.stdout);
    }
    // Redis stayed up: no instance fell back to answering alone (it would say so in its log).
    expect([...a.lines, ...b.lines].filter((l) => l.includes("Redis"))).toEqual([]);
    expect(sandbox.stats().requests).toBe(single.requests);
    // Both instances served the processes, and fetched upstream between them (neither did it all).
    const misses = [a, b].map((i) => i.lines.filter((l) => l.includes('"cache":"miss"')).length);
    expect(misses[0]! + misses[1]!).toBe(single.requests);
    // The ledger counted every unit once: the same report on both, equal to what the service metered.
    const usageA = (await (await a.get("/usage")).json()) as { units: number; byDay: Record<string, number> };
    const usageB = (await (await b.get("/usage")).json()) as unknown;
    expect(usageB).toEqual(usageA);
    expect(usageA.units).toBe(sandbox.usage());
    expect(usageA.units).toBe(single.units);
    expect(usageA.byDay).toEqual({ [centralDay(Date.now())]: single.units });
  }, 60_000);

  test('"Limit Exceeded" met through instance A stops instance B before any upstream request', async () => {
    sandbox = await startSandbox({ port: 0, quota: 2 });
    const [a, b] = await twoInstances();
    expect((await a.get("/v1/metrics/roic/AAPL?datapoint=ROIC&year=2021")).status).toBe(200);
    expect((await a.get("/v1/metrics/roic/AAPL?datapoint=ROIC&year=2022")).status).toBe(200);
    const spent = await a.get(ROIC);
    expect(spent.status).toBe(429);
    expect(await spent.json()).toEqual({ message: "Limit Exceeded" });
    expect(sandbox.stats().requests).toBe(3);

    const stopped = await b.get("/v1/metrics/roic/MSFT?datapoint=NOPAT&year=2023");
    expect(stopped.status).toBe(429);
    const resetsOn = quotaResetsOn(Date.now());
    expect(await stopped.json()).toEqual({
      message: `Limit Exceeded (from the FDQ gateway): the account's quota was spent this month; it resets on ${resetsOn} (or with \`fdq usage --reset\` if the plan was raised).`,
    });
    // The day's kept answers are still served by B, from A's flight; nothing more went upstream.
    expect((await b.get("/v1/metrics/roic/AAPL?datapoint=ROIC&year=2021")).status).toBe(200);
    expect(sandbox.stats().requests).toBe(3);
    expect(await (await b.get("/usage")).json()).toMatchObject({ units: 2, exhausted: true, resetsOn });
  });

  // Each answer takes 250 ms at the sandbox, so every request of a wave is open at once even when the
  // machine is busy (at 40 ms a slow test worker saw 11 of 12). Every request comes from one client (one
  // analyst), who never takes the account's last free slot: 5 of its 6 at once, the sixth kept for another
  // analyst (test/integration/gateway/fair-slots.test.ts shows another analyst taking it across instances).
  test("the account's upstream requests stay within one bound across both instances: one analyst's 5 of 6", async () => {
    sandbox = await startSandbox({ port: 0, latencyMs: 250 });
    proxy = await startCountingProxy(sandbox.baseUrl.replace(/\/v1$/, ""));
    const [a, b] = await twoInstances({ upstream: proxy.baseUrl });
    const paths = distinctDatapoints();
    const answers = await Promise.all(paths.map((p, i) => (i % 2 ? b : a).get(p)));
    expect(answers.map((r) => r.status)).toEqual(Array(paths.length).fill(200));
    expect(sandbox.stats().requests).toBe(paths.length);
    expect(proxy.peak()).toBe(5);
  });

  test("without Redis each instance has its own bound: the same load opens 10 at once", async () => {
    // The check above can tell: two instances that do not share Redis together exceed the bound.
    sandbox = await startSandbox({ port: 0, latencyMs: 250 });
    proxy = await startCountingProxy(sandbox.baseUrl.replace(/\/v1$/, ""));
    const a = await startInstance({ upstream: proxy.baseUrl });
    const b = await startInstance({ upstream: proxy.baseUrl });
    const paths = distinctDatapoints();
    await Promise.all(paths.map((p, i) => (i % 2 ? b : a).get(p).then((r) => r.text())));
    expect(proxy.peak()).toBe(10);
  });

  test("team mode: the upstream key and the tokens are in no Redis key or value and no log line", async () => {
    const upstreamKey = "team-upstream-key-5d1e8b2a";
    const alice = "gw-alice-token-9f8e7d";
    const bob = "gw-bob-token-6c5b4a";
    sandbox = await startSandbox({ port: 0, apiKeys: [upstreamKey] });
    const tokens = path.join(tempDir(), "tokens");
    writeFileSync(tokens, `${tokenLine("alice", alice)}\n${tokenLine("bob", bob)}\n`);
    const [a, b] = await twoInstances({ tokensFile: tokens, upstreamApiKey: upstreamKey });
    const texts: string[] = [];
    for (const p of [
      ROIC,
      "/v1/metrics/roic/AAPL?datapoint=NOT_A_DATAPOINT&year=2023",
      "/v1/not/a/route",
      "/usage",
    ]) {
      for (const [instance, key] of [
        [a, alice],
        [b, bob],
      ] as const) {
        const res = await instance.get(p, key);
        texts.push(JSON.stringify([...res.headers]), await res.text());
      }
    }
    // Shared: ROIC and the missing datapoint went upstream once each; the unknown path never did.
    expect(sandbox.stats().requests).toBe(2);
    for (const i of instances) await i.gateway.close();
    const contents = await redisContents((redis as RunningRedis).url);
    expect(contents.some((c) => c.key.includes(":answer:"))).toBe(true);
    expect(contents.some((c) => c.key.includes(":ledger:"))).toBe(true);
    for (const text of [...texts, ...a.lines, ...b.lines, ...contents.flatMap((c) => [c.key, c.text])]) {
      expect(text).not.toContain(upstreamKey);
      expect(text).not.toContain(alice);
      expect(text).not.toContain(bob);
    }
    instances = [];
  });

  test("Redis killed mid-run: every cell is still right, the log says sharing is off once, then that it is back", async () => {
    sandbox = await startSandbox({ port: 0, latencyMs: 15 });
    const [a, b] = await twoInstances();
    const s = sandbox;
    // One process per instance: each instance meets the outage with requests of its own in flight, as it did
    // with two each (the processes ask the same cells, so more of them add CPU, not cases).
    const runs: Array<Promise<Run>> = Array.from({ length: 2 }, (_, i) =>
      evalFile((i % 2 ? b : a).gateway.url, s.demoKey, file),
    );
    // Mid-run: the processes have sent some of their requests, not all.
    await until(() => s.stats().requests >= 10, 20_000);
    expect(s.stats().requests).toBeLessThan(single.requests);
    const port = (redis as RunningRedis).port;
    await (redis as RunningRedis).kill();
    const outs = await Promise.all(runs);
    expect(outs.map((o) => o.code)).toEqual([0, 0]);
    for (const out of outs) {
      expect(out.stderr).toBe("");
      expect(out.stdout).toBe(single.stdout);
    }
    for (const i of [a, b]) expect(i.lines.filter((l) => l === offMessage(port))).toHaveLength(1);
    for (const i of [a, b])
      expect(i.lines.filter((l) => l.includes("Redis") && l !== offMessage(port))).toEqual([]);

    // Back on the same port: each instance says so once and shares again.
    redis = await startRedis(binary as string, port);
    await until(() => [a, b].every((i) => i.lines.includes(backMessage(port))), 10_000);
    for (const i of [a, b]) expect(i.lines.filter((l) => l === backMessage(port))).toHaveLength(1);
    const before = s.stats().requests;
    const fresh = "/v1/metrics/roic/NFLX?datapoint=ROIC&year=2020";
    expect((await a.get(fresh)).status).toBe(200);
    expect((await b.get(fresh)).status).toBe(200);
    expect(s.stats().requests).toBe(before + 1);
  }, 60_000);

  test("a hung Redis (SIGSTOP) is given up after its timeout; units counted meanwhile reach it when it answers", async () => {
    sandbox = await startSandbox({ port: 0 });
    const [a] = await twoInstances();
    const r = redis as RunningRedis;
    expect((await a.get("/v1/metrics/roic/AAPL?datapoint=ROIC&year=2021")).status).toBe(200);
    process.kill(r.pid, "SIGSTOP");
    try {
      // Answered without Redis: the first look waits out the command timeout, the next ones skip Redis.
      expect((await a.get("/v1/metrics/roic/AAPL?datapoint=ROIC&year=2022")).status).toBe(200);
      expect(a.lines.filter((l) => l === offMessage(r.port))).toHaveLength(1);
      expect((await a.get(ROIC)).status).toBe(200);
    } finally {
      process.kill(r.pid, "SIGCONT");
    }
    expect(sandbox.stats().requests).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the second in which Redis is not tried
    // A request this instance has not kept looks at Redis, which answers: sharing is back.
    expect((await a.get("/v1/metrics/roic/NFLX?datapoint=ROIC&year=2020")).status).toBe(200);
    expect(a.lines.filter((l) => l === backMessage(r.port))).toHaveLength(1);
    await until(() => false, 100); // the units of the outage are pushed when Redis is back
    expect(await (await a.get("/usage")).json()).toMatchObject({ units: 4 });
    expect(sandbox.stats().requests).toBe(4);
  }, 30_000);

  test("Redis unreachable at start: the gateway starts, says sharing is off, and answers", async () => {
    sandbox = await startSandbox({ port: 0 });
    const nobody = await freePort();
    const a = await startInstance({ upstream: sandbox.baseUrl, redis: `redis://127.0.0.1:${nobody}` });
    expect((await a.get(ROIC)).status).toBe(200);
    expect((await a.get(ROIC)).status).toBe(200);
    expect(sandbox.stats().requests).toBe(1);
    expect(a.lines.filter((l) => l === offMessage(nobody))).toHaveLength(1);
  });
});

test("--redis must be a redis:// URL: the gateway does not start", async () => {
  await expect(
    startGateway({
      upstream: "http://127.0.0.1:9/v1",
      port: 0,
      redis: "http://127.0.0.1:6379",
      onWarning: () => {},
    }),
  ).rejects.toThrow(new GatewaySetupError('"http:" is not redis: or rediss:; give redis://HOST:PORT'));
});

/** 54 distinct single-datapoint requests. */
function distinctDatapoints(): string[] {
  const out: string[] = [];
  for (const ticker of ["AAPL", "MSFT", "NFLX"])
    for (const year of [2021, 2022, 2023])
      for (const name of ["ROIC", "NOPAT", "CAPITAL_INVESTED_ADJUSTED"])
        out.push(`/v1/metrics/roic/${ticker}?datapoint=${name}&year=${year}`);
  for (const ticker of ["AAPL", "MSFT", "NFLX"])
    for (const year of [2021, 2022, 2023])
      for (const name of ["REVENUE", "PROFIT_GROSS", "EXPENSES_SGA"])
        out.push(`/v1/screens/traditional/${ticker}?datapoint=${name}&year=${year}`);
  return out;
}
