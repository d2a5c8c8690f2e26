// The request module against the sandbox over real HTTP: request counts, exact messages, faults, the
// persistent cache and the concurrency limit.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  BadResponseError,
  type ClientEvent,
  type ClientOptions,
  FdqClient,
  type FdqError,
  TimeoutError,
  UnauthorizedError,
} from "../../../src/api";
import { FileStorage } from "../../../src/api/node";
import { findDataset } from "../../../src/catalog";
import type { RunningSandbox, SandboxOptions } from "../../../src/sandbox";
import { sandboxes } from "./sandboxes";
import { EXCEL_HINTS } from "../../../src/host/excel-hints";

const DAY1 = Date.parse("2024-03-15T10:30:00Z"); // 05:30 Chicago, after the vendor's refresh window
const DAY2 = Date.parse("2024-03-16T10:30:00Z");
const sandboxNow = () => new Date("2024-03-15T12:00:00Z");
const YEAR = 2022;

const sandbox = sandboxes({ now: sandboxNow });

const client = (sb: RunningSandbox, options: Partial<ClientOptions> = {}) =>
  new FdqClient({ baseUrl: sb.baseUrl, apiKey: sb.demoKey, now: () => DAY1, hints: EXCEL_HINTS, ...options });

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as FdqError,
  );

/** Sends attempt n to `faulty` while n <= faultyAttempts, then to `healthy` (same paths, other port). */
function routed(faulty: RunningSandbox, healthy: RunningSandbox, faultyAttempts: number): typeof fetch {
  let n = 0;
  return (input, init) => {
    n++;
    const url = String(input).replace(
      healthy.baseUrl,
      n <= faultyAttempts ? faulty.baseUrl : healthy.baseUrl,
    );
    return fetch(url, init);
  };
}

const enhanced = findDataset("screens/enhanced")!.datapoints.map((d) => d.name);

describe("request counts against the sandbox", () => {
  it("makes 1 HTTP request for 200 single-datapoint calls (after the day's coverage list), 0 for the same batch that day, the list and 1 after the day boundary", async () => {
    const sb = await sandbox();
    let now = DAY1;
    const fdq = client(sb, { now: () => now });
    const batch = () =>
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fdq.datapoint({
            ticker: "AAPL",
            dataset: "enhanced",
            name: enhanced[i % enhanced.length]!,
            year: YEAR,
          }),
        ),
      );
    // The stock coverage list (asked once per refresh day before the first data request), then the data.
    const first = await batch();
    expect(sb.stats().requests).toBe(2);
    const second = await batch();
    expect(sb.stats().requests).toBe(2);
    expect(second.map((r) => r.value)).toEqual(first.map((r) => r.value));
    now = DAY2;
    await batch();
    expect(sb.stats().requests).toBe(4);
    expect(first.every((r) => typeof r.value === "number")).toBe(true);
    await fdq.close();
  });

  it("decodes both envelope forms (body as string and as object) to the same values", async () => {
    const [asString, asObject] = await Promise.all([sandbox(), sandbox({ bodyAsObject: true })]);
    const read = async (sb: RunningSandbox) => {
      const fdq = client(sb);
      const result = [
        (await fdq.dataset({ ticker: "MSFT", dataset: "roic", year: YEAR, quarter: 2 })).values,
        (await fdq.datapoint({ ticker: "MSFT", dataset: "adjusted", name: "ACCOUNTS_PAYABLE", year: YEAR }))
          .value,
        (await fdq.ratings("MSFT")).data,
        (await fdq.security("stock", "MSFT")).data,
      ];
      await fdq.close();
      return result;
    };
    const [a, b] = await Promise.all([read(asString), read(asObject)]);
    expect(b).toEqual(a);
    expect((a[0] as number[]).length).toBe(findDataset("roic")!.datapoints.length);
  });

  it("answers the sandbox's not-found and 403 answers with the exact messages, without retrying", async () => {
    const sb = await sandbox();
    const fdq = client(sb);
    const early = await failure(fdq.datapoint({ ticker: "NFLX", dataset: "roic", name: "ROIC", year: 2008 }));
    expect([early?.name, early?.message]).toEqual(["DataNotFoundError", "The requested data was not found."]);
    const unknown = await failure(
      fdq.datapoint({ ticker: "NOSUCH", dataset: "roic", name: "ROIC", year: YEAR }),
    );
    expect([unknown?.name, unknown?.message]).toEqual([
      "UncoveredTickerError",
      'FDQ does not cover the ticker "NOSUCH" (no stock of that ticker in its coverage). Check the spelling, or search the ticker list in the FDQ task pane (Find a ticker).',
    ]);
    const denied = client(sb, { apiKey: "not-the-key" });
    const before = sb.stats().requests;
    const error = await failure(denied.ratings("AAPL"));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error?.message).toBe(
      "The FDQ service refused the API key (403). Check the key in the FDQ task pane.",
    );
    expect(sb.stats().requests - before).toBe(1);
    expect(denied.stats()).toMatchObject({ requestsSent: 1, retries: 0, failures: { UnauthorizedError: 1 } });
    await Promise.all([fdq.close(), denied.close()]);
  });
});

describe("faults over real HTTP", () => {
  const request = { ticker: "NFLX", dataset: "ebv", name: "NOPAT", year: YEAR };

  async function expectRecovery(faults: SandboxOptions["faults"], expectedWaits: (w: number[]) => void) {
    const [faulty, healthy] = await Promise.all([sandbox({ faults }), sandbox()]);
    const waits: number[] = [];
    const fdq = client(healthy, {
      fetch: routed(faulty, healthy, 1),
      sleep: async (ms) => void waits.push(ms),
    });
    const reference = client(healthy);
    const [result, expected] = [await fdq.datapoint(request), await reference.datapoint(request)];
    expect(result.value).toBe(expected.value);
    // The first attempt, the day's coverage list, meets the fault; its retry and the data request follow.
    expect(faulty.stats().requests).toBe(1);
    expect(fdq.stats()).toMatchObject({ requestsSent: 3, retries: 1, failures: {} });
    expectedWaits(waits);
    await Promise.all([fdq.close(), reference.close()]);
  }

  it("recovers from a 429 with Retry-After, waiting exactly the seconds asked", async () => {
    await expectRecovery({ rate429: 1, retryAfterSeconds: 2 }, (waits) => expect(waits).toEqual([2000]));
  });

  it("recovers from a dropped connection", async () => {
    await expectRecovery({ dropRate: 1 }, (waits) => expect(waits).toHaveLength(1));
  });

  it("recovers from a 503", async () => {
    await expectRecovery({ rate503: 1 }, (waits) => expect(waits).toHaveLength(1));
  });

  it("gets every value right through a mix of 429, 503 and dropped connections", async () => {
    const faults = { rate429: 0.2, rate503: 0.15, dropRate: 0.15 };
    const [faulty, healthy] = await Promise.all([sandbox({ faults }), sandbox()]);
    const fdq = client(faulty, { concurrency: 1, sleep: async () => undefined, retry: { attempts: 8 } });
    const reference = client(healthy);
    const names = ["ACCOUNTS_PAYABLE", "ACCOUNTS_RECEIVABLE", "ADJUSTMENT_DCF_TOTAL"];
    for (const ticker of ["AAPL", "MSFT", "NFLX"]) {
      for (const name of names) {
        const req = { ticker, dataset: "adjusted", name, year: YEAR };
        expect((await fdq.datapoint(req)).value).toBe((await reference.datapoint(req)).value);
      }
    }
    expect(fdq.stats().retries).toBeGreaterThan(0);
    expect(fdq.stats().failures).toEqual({});
    await Promise.all([fdq.close(), reference.close()]);
  });

  it("reports malformed 200 bodies as BadResponseError with a readable message", async () => {
    const sb = await sandbox({ faults: { malformedRate: 1 } });
    const fdq = client(sb);
    const messages = [];
    for (const ticker of ["AAPL", "MSFT"]) {
      const error = await failure(fdq.ratings(ticker));
      expect(error).toBeInstanceOf(BadResponseError);
      messages.push(error?.message);
    }
    expect(messages.sort()).toEqual([
      "The FDQ service sent an answer that could not be read (an HTML page instead of JSON). Check the base URL in the FDQ task pane: it must end in /v1.",
      "The FDQ service sent an answer that could not be read (text that is not JSON instead of JSON). Check the base URL in the FDQ task pane: it must end in /v1.",
    ]);
    await fdq.close();
  });

  it("times out a slow answer", async () => {
    const sb = await sandbox({ latencyMs: 300 });
    const fdq = client(sb, { timeoutMs: 50, retry: { attempts: 1 } });
    const error = await failure(fdq.ratings("AAPL"));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error?.message).toBe(
      "The FDQ service did not answer within 0.05 s. Try again later, then recalculate.",
    );
    await fdq.close();
  });
});

describe("persistent cache across restarts (file store)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "fdq-api-int-"));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("answers from the file after a restart, and survives a corrupted file", async () => {
    const sb = await sandbox();
    const file = path.join(dir, "cache.json");
    const warnings: string[] = [];
    const onEvent = (e: ClientEvent) => void (e.type === "cache-warning" && warnings.push(e.message));
    const make = () => client(sb, { storage: new FileStorage(file), onEvent });
    const request = { ticker: "AAPL", dataset: "roic", name: "ROIC", year: YEAR };

    const first = make();
    const original = await first.datapoint(request);
    await first.close();
    const second = make();
    expect(await second.datapoint(request)).toEqual({ ...original, source: "cache" });
    // The first client's coverage list and data request; the second sends nothing.
    expect(sb.stats().requests).toBe(2);
    await second.close();

    await fs.writeFile(file, '{"fdq.cache": "{\\"v\\":1,');
    const third = make();
    expect(await third.datapoint(request)).toEqual(original);
    expect(sb.stats().requests).toBe(4);
    expect(warnings).toEqual([
      expect.stringMatching(/^The saved FDQ cache could not be read and was discarded/),
    ]);
    await third.close();
  });
});

describe("concurrency limit against the sandbox", () => {
  it("never has more than the limit open during a burst", async () => {
    const sb = await sandbox({ latencyMs: 3 });
    let current = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      current++;
      most = Math.max(most, current);
      try {
        const response = await fetch(input, init);
        await response.clone().arrayBuffer();
        return response;
      } finally {
        current--;
      }
    };
    const fdq = client(sb, { fetch: counting, concurrency: 6 });
    const targets = ["AAPL", "MSFT"].flatMap((ticker) => [YEAR - 1, YEAR].map((year) => ({ ticker, year })));
    const names = findDataset("adjusted")!.datapoints.map((d) => d.name);
    const calls = targets.flatMap(({ ticker, year }) =>
      names.map((name) =>
        fdq.datapoint({ ticker, dataset: "adjusted", name, year }).then(
          () => 1,
          () => 0,
        ),
      ),
    );
    const expected = targets.length * names.length;
    expect((await Promise.all(calls)).reduce<number>((a, b) => a + b, 0)).toBe(expected);
    expect(most).toBe(6);
    // Every datapoint alone, and the day's coverage list before them.
    expect(sb.stats().requests).toBe(expected + 1);
    expect(fdq.stats()).toMatchObject({ maxInFlight: 6, inFlight: 0, queued: 0 });
    await fdq.close();
  });
});
