// One account's burst to a hanging service does not freeze another's first request: the gateway on
// 127.0.0.1 in front of an upstream stand-in (test/support/hostile-server.ts) whose answers hang for account A
// (or for one analyst) and come at once for account B. A fires a burst bigger than the slot budget; B's first,
// uncached request must be answered, with its value, in under 5 s (A's requests hang until their deadline,
// 8 s after arrival, so a B that waited for one of A's slots would take longer). /healthz and the access log
// show the budget and the shares. Embedded, and with --redis over two instances on one Redis.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startGateway, tokenLine, type GatewayOptions, type RunningGateway } from "../../../src/gateway";
import { envelope, record, startHostile, type HostileServer, type Reply } from "../../support/hostile-server";
import { figure, printFigures } from "./figures";
import { tempDir } from "./helpers";
import { redisServerBinary, startRedis, type RunningRedis } from "./redis-server";

const KEY_A = "account-a-key-0a1b2c3d4e5f";
const KEY_B = "account-b-key-6a7b8c9d0e1f";
const UPSTREAM_KEY = "team-upstream-key-2b3c4d5e6f7a";
const ALICE = "gw-alice-token-8c9d0e1f2a";
const BOB = "gw-bob-token-3b4c5d6e7f";
const TIMEOUT_MS = 8_000;
const BOUND_MS = 5_000;
const roic = (ticker: string): string => `/v1/metrics/roic/${ticker}?datapoint=ROIC&year=2023`;
const B_VALUE = "0.31415926535897900";

/** A's answers (or those of a path with HANG) hang: headers, then no body until the client goes. */
const HANG: Reply = { trickle: { chunks: [" "], everyMs: 60_000 } };
const ANSWER: Reply = { body: envelope([record({ ticker: "MSFT", datavalue: B_VALUE })]) };

let hostile: HostileServer | undefined;
let gateways: RunningGateway[] = [];
afterEach(async () => {
  // The stand-in first: its sockets closed, the hanging requests end at once (502) instead of at their deadline.
  await hostile?.close();
  hostile = undefined;
  for (const g of gateways) await g.close();
  gateways = [];
});
afterAll(() => printFigures("gateway, fair slots"));

async function gateway(lines: string[], o: Partial<GatewayOptions>): Promise<RunningGateway> {
  const g = await startGateway({
    upstream: hostile!.baseUrl,
    port: 0,
    store: tempDir(),
    timeoutMs: TIMEOUT_MS,
    log: (l) => lines.push(l),
    onWarning: (l) => lines.push(l),
    ...o,
  });
  gateways.push(g);
  return g;
}

interface Answer {
  status: number;
  body: string;
  ms: number;
}

const get = async (url: string, key: string): Promise<Answer> => {
  const start = performance.now();
  const res = await fetch(url, { headers: { "x-api-key": key } });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - start };
};

/** A's burst: `n` distinct uncached requests at once, spread over `urls` in turn. */
const burst = (urls: string[], key: string, n: number): Array<Promise<Answer>> =>
  Array.from({ length: n }, (_, i) => get(`${urls[i % urls.length]}${roic(`HANG${i}`)}`, key));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the stand-in has seen `n` requests (the burst's slots are all taken upstream). */
async function seen(n: number): Promise<void> {
  const deadline = performance.now() + 5_000;
  while (hostile!.seen.length < n && performance.now() < deadline) await sleep(20);
  expect(hostile!.seen.length).toBe(n);
}

const logEntries = (lines: string[]): Array<Record<string, unknown>> =>
  lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);

const valueOf = (body: string): unknown =>
  (JSON.parse((JSON.parse(body) as { body: string }).body) as { results: Array<{ datavalue: string }> })
    .results[0]!.datavalue;

describe("the gateway's upstream slots: one account's hanging burst and another account's first request", () => {
  it("embedded: B's first uncached request is answered at once while A holds every other slot; /healthz and the log show the budget and the shares", async () => {
    hostile = await startHostile((_p, s) => (s.seen[s.seen.length - 1]!.key === KEY_A ? HANG : ANSWER));
    const lines: string[] = [];
    // A budget of 3 below the account's 6: A alone could take every slot but the one kept.
    const g = await gateway(lines, { upstreamSlots: 3, concurrency: 6 });
    const a = burst([g.url], KEY_A, 10);
    await seen(2);
    const b = await get(`${g.url}${roic("MSFT")}`, KEY_B);
    figure("B's first request while A's 10-request burst hangs (budget 3)", `${b.ms.toFixed(0)} ms`);
    expect(b.status).toBe(200);
    expect(valueOf(b.body)).toBe(B_VALUE);
    expect(b.ms).toBeLessThan(BOUND_MS);
    expect(hostile.seen.map((s) => s.key)).toEqual([KEY_A, KEY_A, KEY_B]);
    expect(hostile.seen[2]!.path).toBe("/v1/metrics/roic/MSFT?datapoint=ROIC&year=2023");

    const health = await fetch(`${g.url}/healthz`);
    expect(await health.json()).toEqual({
      ok: true,
      upstream: { budget: 3, perAccount: 6, inFlight: 2, waiting: 8, accounts: 1, share: 2, byAccount: [2] },
    });
    const bLine = logEntries(lines).find((e) => e.path === "/v1/metrics/roic/MSFT?datapoint=ROIC&year=2023")!;
    // Taken while A and B were busy: the 2 slots not kept shared by two accounts, 1 each.
    expect(bLine).toMatchObject({ status: 200, cache: "miss", units: 1 });
    expect(bLine.slot).toMatchObject({ budget: 3, share: 1, held: 1 });
    expect((bLine.slot as { waitMs: number }).waitMs).toBeLessThan(BOUND_MS);

    // Every request of A keeps its one deadline: 504, the queued ones without going upstream.
    const answers = await Promise.all(a);
    expect(answers.map((x) => x.status)).toEqual(Array(10).fill(504));
    expect(Math.max(...answers.map((x) => x.ms))).toBeLessThan(TIMEOUT_MS * 1.6);
    // A's log lines: each request that went upstream shows its slot (the first two taken while A was alone:
    // 2 slots due, the third kept); a queued one may take a slot given back at its deadline, the rest none.
    const aSent = hostile.seen.filter((x) => x.key === KEY_A).length;
    const aSlots = logEntries(lines)
      .filter((e) => String(e.path).includes("HANG"))
      .map((e) => e.slot as { budget: number; share: number; held: number } | null);
    const shown = aSlots.filter((x) => x !== null).map((x) => [x!.budget, x!.share, x!.held]);
    expect(shown.length).toBeGreaterThanOrEqual(aSent);
    expect(shown).toEqual(
      expect.arrayContaining([
        [3, 2, 1],
        [3, 2, 2],
      ]),
    );
    expect(shown.every(([budget, , held]) => budget === 3 && held! <= 2)).toBe(true);
    expect(hostile.seen.filter((x) => x.key === KEY_B)).toHaveLength(1);
    expect(await (await fetch(`${g.url}/healthz`)).json()).toEqual({
      ok: true,
      upstream: { budget: 3, perAccount: 6, inFlight: 0, waiting: 0, accounts: 0, share: 2, byAccount: [] },
    });
  }, 30_000);

  it("team mode: an analyst's first request is answered at once while a colleague's burst holds the account's other slots", async () => {
    hostile = await startHostile((p) => (p.includes("HANG") ? HANG : ANSWER));
    const tokens = path.join(tempDir(), "tokens");
    writeFileSync(tokens, `${tokenLine("alice", ALICE)}\n${tokenLine("bob", BOB)}\n`);
    const lines: string[] = [];
    const g = await gateway(lines, { tokensFile: tokens, upstreamApiKey: UPSTREAM_KEY });
    const alice = burst([g.url], ALICE, 12);
    await seen(5);
    const bob = await get(`${g.url}${roic("MSFT")}`, BOB);
    figure(
      "Bob's first request while Alice's 12-request burst hangs (6 per account)",
      `${bob.ms.toFixed(0)} ms`,
    );
    expect(bob.status).toBe(200);
    expect(valueOf(bob.body)).toBe(B_VALUE);
    expect(bob.ms).toBeLessThan(BOUND_MS);
    expect(hostile.seen).toHaveLength(6);
    expect(await (await fetch(`${g.url}/healthz`)).json()).toEqual({
      ok: true,
      upstream: { budget: 64, perAccount: 6, inFlight: 5, waiting: 7, accounts: 1, share: 6, byAccount: [5] },
    });
    const bobLine = logEntries(lines).find((e) => e.analyst === "bob")!;
    expect(bobLine.slot).toMatchObject({ budget: 64, share: 6, held: 6 });
    await hostile.close(); // Alice's requests end (502) now rather than at their deadline
    expect((await Promise.all(alice)).every((x) => x.status === 502 || x.status === 504)).toBe(true);
  }, 30_000);
});

const binary = redisServerBinary();
if (binary === undefined) {
  console.log(
    "SKIPPED: the gateway's fair slots with Redis: redis-server is not installed and could not be installed.",
  );
}
const describeRedis = binary === undefined ? describe.skip : describe;

describeRedis("the same with --redis: two instances on one Redis", () => {
  const secret = "test-secret-of-the-fair-slots-instances-0123";
  let redis: RunningRedis | undefined;
  beforeAll(async () => {
    redis = await startRedis(binary!);
  });
  afterAll(async () => {
    await redis?.kill();
  });

  it("B's first uncached request, on either instance, is answered at once while A's burst over both holds every other slot", async () => {
    hostile = await startHostile((_p, s) => (s.seen[s.seen.length - 1]!.key === KEY_A ? HANG : ANSWER));
    const lines: string[] = [];
    const o = { upstreamSlots: 3, concurrency: 6, redis: redis!.url, redisSecret: secret };
    const [one, two] = [await gateway(lines, o), await gateway(lines, o)];
    const a = burst([one.url, two.url], KEY_A, 12);
    // Each instance: 2 of its 3 slots for A (one kept); 4 of the account's 6 in Redis.
    await seen(4);
    const b = await get(`${two.url}${roic("MSFT")}`, KEY_B);
    figure("--redis: B's first request while A's burst over two instances hangs", `${b.ms.toFixed(0)} ms`);
    expect(b.status).toBe(200);
    expect(valueOf(b.body)).toBe(B_VALUE);
    expect(b.ms).toBeLessThan(BOUND_MS);
    expect(hostile.seen.filter((s) => s.key === KEY_B).map((s) => s.path)).toEqual([
      "/v1/metrics/roic/MSFT?datapoint=ROIC&year=2023",
    ]);
    for (const g of [one, two])
      expect(((await (await fetch(`${g.url}/healthz`)).json()) as { upstream: unknown }).upstream).toEqual({
        budget: 3,
        perAccount: 6,
        inFlight: 2,
        waiting: 4,
        accounts: 1,
        share: 2,
        byAccount: [2],
      });
    await hostile.close();
    expect((await Promise.all(a)).every((x) => x.status === 502 || x.status === 504)).toBe(true);
  }, 30_000);

  it("team mode: the account's last slot in Redis is kept for an analyst with nothing upstream, across instances", async () => {
    hostile = await startHostile((p) => (p.includes("HANG") ? HANG : ANSWER));
    const tokens = path.join(tempDir(), "tokens");
    writeFileSync(tokens, `${tokenLine("alice", ALICE)}\n${tokenLine("bob", BOB)}\n`);
    const lines: string[] = [];
    const o = { tokensFile: tokens, upstreamApiKey: UPSTREAM_KEY, redis: redis!.url, redisSecret: secret };
    const [one, two] = [await gateway(lines, o), await gateway(lines, o)];
    // Alice's burst over both instances: 5 of the account's 6 upstream (the sixth kept), the rest waiting.
    const alice = burst([one.url, two.url], ALICE, 12);
    await seen(5);
    await sleep(300); // long enough for a sixth of Alice's to go, were the last slot not kept
    expect(hostile.seen).toHaveLength(5);
    const bob = await get(`${two.url}${roic("MSFT")}`, BOB);
    figure(
      "--redis, team mode: Bob's first request while Alice's burst over two instances hangs",
      `${bob.ms.toFixed(0)} ms`,
    );
    expect(bob.status).toBe(200);
    expect(valueOf(bob.body)).toBe(B_VALUE);
    expect(bob.ms).toBeLessThan(BOUND_MS);
    expect(hostile.seen).toHaveLength(6);
    await hostile.close();
    expect((await Promise.all(alice)).every((x) => x.status === 502 || x.status === 504)).toBe(true);
  }, 30_000);
});
