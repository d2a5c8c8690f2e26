// Team mode: the gateway holds the team's FDQ key (FDQ_UPSTREAM_API_KEY), each analyst presents a personal
// gateway token whose SHA-256 the tokens file holds. Shared answers and ledger, 403 before any upstream
// request for an unknown token, tokens added without a restart, and the key in no answer, log or file.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FdqClient } from "../../../src/api";
import { UsageError } from "../../../src/cli/options";
import { parseServeArgs } from "../../../src/cli/serve-options";
import { hashToken, NO_UPSTREAM_KEY, startGateway, tokenLine, GatewaySetupError } from "../../../src/gateway";
import { runFdq } from "../cli/run-fdq";
import { filesUnder, startRig, tempDir, type Rig } from "./helpers";

const ROIC = "/v1/metrics/roic/AAPL?datapoint=ROIC&year=2023";
const UPSTREAM_KEY = "team-upstream-key-7f3a9c1e";
const ALICE = "gw-alice-token-1b2c3d";
const BOB = "gw-bob-token-4e5f6a";
const CAROL = "gw-carol-token-7a8b9c";

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function tokensFile(lines: string[]): string {
  const file = path.join(tempDir(), "tokens");
  writeFileSync(file, ["# FDQ gateway tokens: name:sha256hex", ...lines, ""].join("\n"));
  return file;
}

async function teamRig(file: string): Promise<Rig> {
  return startRig({ apiKeys: [UPSTREAM_KEY] }, { tokensFile: file, upstreamApiKey: UPSTREAM_KEY });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("fdq serve: team mode", () => {
  test("two analysts asking the same datapoint cost one upstream request; /usage is the team's", async () => {
    const file = tokensFile([tokenLine("alice", ALICE), tokenLine("bob", BOB)]);
    rig = await teamRig(file);
    const a = await rig.get(ROIC, { key: ALICE });
    expect(a.status).toBe(200);
    const b = await rig.get(ROIC, { key: BOB });
    expect(b.status).toBe(200);
    expect(await b.text()).toBe(await a.text());
    expect(rig.upstream()).toBe(1);
    const usage = (await (await rig.get("/usage", { key: BOB })).json()) as { units: number };
    expect(usage.units).toBe(1);
    const log = rig.lines
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { analyst: string; cache: string; path: string });
    expect(log.map((l) => [l.analyst, l.cache])).toEqual([
      ["alice", "miss"],
      ["bob", "hit"],
      ["bob", "bypass"],
    ]);
  });

  test("the day's coverage list goes upstream once for the team: two analysts' add-ins, each with its own day cache", async () => {
    const file = tokensFile([tokenLine("alice", ALICE), tokenLine("bob", BOB)]);
    // Checking the 395 KB stock list for the team's key took 200-580 ms on the 2-core machine under load (more
    // under jest), around the 500 ms budget, which answers 503 and has the add-in retry: this test counts the
    // list's sharing, so the check is given the time it takes.
    rig = await startRig(
      { apiKeys: [UPSTREAM_KEY] },
      { tokensFile: file, upstreamApiKey: UPSTREAM_KEY, redactionBudgetMs: 60_000 },
    );
    const paths: string[] = [];
    const addin = (token: string): FdqClient =>
      new FdqClient({
        baseUrl: `${rig!.gateway.url}/v1`,
        apiKey: token,
        fetch: (input, init) => {
          paths.push(new URL(String(input)).pathname);
          return fetch(input, init);
        },
      });
    const [alice, bob] = [addin(ALICE), addin(BOB)];
    try {
      const roic = (c: FdqClient, ticker: string) =>
        c.datapoint({ ticker, dataset: "roic", name: "ROIC", year: 2023 }).then((r) => r.value);
      expect(typeof (await roic(alice, "AAPL"))).toBe("number");
      expect(typeof (await roic(bob, "MSFT"))).toBe("number");
      // Each add-in asks the list before its first data request (the default rule); the gateway keeps the
      // team's answers for the day, so only the first ask goes upstream.
      expect(paths).toEqual([
        "/v1/coverage/stock",
        "/v1/metrics/roic/AAPL",
        "/v1/coverage/stock",
        "/v1/metrics/roic/MSFT",
      ]);
      expect(rig.upstream()).toBe(1 + 2);
      const usage = (await (await rig.get("/usage", { key: BOB })).json()) as { units: number };
      expect(usage.units).toBe(1 + 2);
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });

  test("an unknown or missing token gets 403 from the gateway and nothing goes upstream", async () => {
    rig = await teamRig(tokensFile([tokenLine("alice", ALICE)]));
    for (const key of ["not-a-token", UPSTREAM_KEY, rig.sandbox.demoKey, null]) {
      const res = await rig.get(ROIC, { key });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        message: "Forbidden: unknown gateway token (from the FDQ gateway)",
      });
    }
    expect((await rig.get("/usage", { key: "not-a-token" })).status).toBe(403);
    expect(rig.upstream()).toBe(0);
    const log = rig.lines
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { analyst: unknown; status: number });
    expect(log.every((l) => l.status === 403 && l.analyst === null)).toBe(true);
  });

  test("a token added to the file is accepted without a restart; a removed one is refused", async () => {
    const file = tokensFile([tokenLine("alice", ALICE)]);
    rig = await teamRig(file);
    expect((await rig.get(ROIC, { key: CAROL })).status).toBe(403);
    appendFileSync(file, `${tokenLine("carol", CAROL)}\n`);
    await sleep(1_100); // the file is looked at most once a second
    expect((await rig.get(ROIC, { key: CAROL })).status).toBe(200);
    writeFileSync(file, `${tokenLine("carol", CAROL)}\n`);
    await sleep(1_100);
    expect((await rig.get(ROIC, { key: ALICE })).status).toBe(403);
    expect((await rig.get(ROIC, { key: CAROL })).status).toBe(200);
    // A malformed line is dropped on its own (revocation fails closed), with a warning that quotes no line.
    writeFileSync(file, `carol:${CAROL}\n`);
    await sleep(1_100);
    expect((await rig.get(ROIC, { key: CAROL })).status).toBe(403);
    expect(rig.lines.some((l) => l.includes("line 1 is not") && !l.includes(CAROL))).toBe(true);
  });

  test("the upstream key is in no answer, header, log line or store file; the tokens file holds no token", async () => {
    const store = tempDir();
    const file = tokensFile([tokenLine("alice", ALICE), tokenLine("bob", BOB)]);
    rig = await startRig(
      { apiKeys: [UPSTREAM_KEY] },
      { tokensFile: file, upstreamApiKey: UPSTREAM_KEY, store },
    );
    const texts: string[] = [];
    const paths = [
      ROIC,
      "/v1/metrics/roic/AAPL?year=2023",
      "/v1/metrics/roic/AAPL?datapoint=NOT_A_DATAPOINT&year=2023",
      "/v1/not/a/route",
      "/usage",
      "/healthz",
    ];
    for (const p of paths) {
      for (const key of [ALICE, BOB, "unknown"]) {
        const res = await rig.get(p, { key });
        texts.push(JSON.stringify([...res.headers]), await res.text());
      }
    }
    expect(rig.upstream()).toBeGreaterThanOrEqual(3);
    await rig.gateway.close();
    for (const text of texts) expect(text).not.toContain(UPSTREAM_KEY);
    expect(rig.lines.length).toBeGreaterThan(0);
    for (const line of rig.lines) {
      expect(line).not.toContain(UPSTREAM_KEY);
      expect(line).not.toContain(ALICE);
      expect(line).not.toContain(BOB);
    }
    const files = filesUnder(store);
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const { file: f, text } of files) {
      expect(f).not.toContain(UPSTREAM_KEY);
      expect(text).not.toContain(UPSTREAM_KEY);
      expect(text).not.toContain(ALICE);
    }
    const tokens = readFileSync(file, "utf8");
    expect(tokens).not.toContain(ALICE);
    expect(tokens).not.toContain(BOB);
    expect(tokens).toContain(`alice:${hashToken(ALICE)}`);
  });

  test("without the upstream key, or with a bad tokens file, the gateway does not start", async () => {
    const file = tokensFile([tokenLine("alice", ALICE)]);
    await expect(
      startGateway({ upstream: "http://127.0.0.1:9/v1", port: 0, tokensFile: file, onWarning: () => {} }),
    ).rejects.toThrow(NO_UPSTREAM_KEY);
    const bad = tokensFile([`alice:${ALICE}`]);
    const start = startGateway({
      upstream: "http://127.0.0.1:9/v1",
      port: 0,
      tokensFile: bad,
      upstreamApiKey: UPSTREAM_KEY,
      onWarning: () => {},
    });
    await expect(start).rejects.toThrow(GatewaySetupError);
    await expect(start).rejects.not.toThrow(ALICE);
    await expect(
      startGateway({
        upstream: "http://127.0.0.1:9/v1",
        port: 0,
        tokensFile: path.join(tempDir(), "missing"),
        upstreamApiKey: UPSTREAM_KEY,
        onWarning: () => {},
      }),
    ).rejects.toThrow(GatewaySetupError);
  });

  test("the flags: --tokens or FDQ_GATEWAY_TOKENS with FDQ_UPSTREAM_API_KEY; --hash-token", () => {
    const args = ["--upstream", "https://api.example.com/v1", "--store", "/tmp/s"];
    expect(() => parseServeArgs([...args, "--tokens", "/etc/fdq/tokens"], {})).toThrow(UsageError);
    expect(() => parseServeArgs([...args, "--tokens", "/etc/fdq/tokens"], {})).toThrow(
      /FDQ_UPSTREAM_API_KEY/,
    );
    expect(
      parseServeArgs([...args, "--tokens", "/etc/fdq/tokens"], { FDQ_UPSTREAM_API_KEY: "k" }),
    ).toMatchObject({ tokensFile: "/etc/fdq/tokens", upstreamApiKey: "k" });
    expect(
      parseServeArgs(args, { FDQ_GATEWAY_TOKENS: "/etc/fdq/t2", FDQ_UPSTREAM_API_KEY: "k" }),
    ).toMatchObject({ tokensFile: "/etc/fdq/t2", upstreamApiKey: "k" });
    expect(parseServeArgs(args, { FDQ_UPSTREAM_API_KEY: "k" })).toMatchObject({
      tokensFile: undefined,
      upstreamApiKey: undefined,
    });
    expect(parseServeArgs(["--hash-token", ALICE, "--name", "alice"], {}).hashToken).toEqual({
      token: ALICE,
      name: "alice",
    });
    expect(tokenLine("alice", ALICE)).toMatch(/^alice:[0-9a-f]{64}$/);
  });

  test("as a process: no FDQ_UPSTREAM_API_KEY is exit 2 with the message; --hash-token prints a line", async () => {
    const file = tokensFile([tokenLine("alice", ALICE)]);
    const env = { ...process.env, FDQ_UPSTREAM_API_KEY: "", FDQ_GATEWAY_TOKENS: "" };
    const refused = await runFdq(
      ["serve", "--upstream", "http://127.0.0.1:9/v1", "--port", "0", "--tokens", file],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("needs the FDQ API key of the team in FDQ_UPSTREAM_API_KEY");
    const line = await runFdq(["serve", "--hash-token", ALICE, "--name", "alice"], env);
    expect(line.code).toBe(0);
    expect(line.stdout).toBe(`alice:${hashToken(ALICE)}\n`);
  });
});
