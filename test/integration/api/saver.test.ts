// The quota saver against the sandbox over real HTTP, day after day on injected clocks: what it keeps, what
// it fetches every refresh day, and that a restatement is picked up within keepDays.
import { type ClientOptions, daysBetween, FdqClient, isClosedYear, MemoryStorage } from "../../../src/api";
import { findDataset } from "../../../src/catalog";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../../src/sandbox";

const EBV = findDataset("metrics/ebv")!;
const SP_NAME = EBV.datapoints.find((d) => d.sp)!.name;
const PLAIN_NAME = EBV.datapoints.find((d) => !d.sp)!.name;
const FIRST_DAY = Date.parse("2024-03-04T15:00:00Z"); // 09:00 Chicago, a Monday
const DAY_MS = 86_400_000;
const CLOSED = 2021;
const OPEN = 2023;

const open: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

/** A sandbox and a clock shared by it and the clients; `day(n)` moves both to the n-th day (0-based). */
async function month(options: SandboxOptions = {}) {
  let now = FIRST_DAY;
  const sb = await startSandbox({ now: () => new Date(now), ...options });
  open.push(sb);
  const storage = new MemoryStorage();
  return {
    sb,
    day: (n: number) => (now = FIRST_DAY + n * DAY_MS),
    /** A new Excel session of that day, on the one persistent store. */
    session: (extra: Partial<ClientOptions> = {}) =>
      new FdqClient({ baseUrl: sb.baseUrl, apiKey: sb.demoKey, now: () => now, storage, ...extra }),
  };
}

const saver = { refreshPolicy: { kind: "saver", keepDays: 7 } } as const;
/**
 * The stock coverage list (1 unit) a session asks before its first data request of a refresh day (the default
 * coverage rule): on the days a value is fetched, never on the days the saver serves it.
 */
const LIST = 1;

async function ask(fdq: FdqClient, name: string, year: number) {
  const result = await fdq.datapoint({ ticker: "AAPL", dataset: "metrics/ebv", name, year });
  return { value: result.value, source: result.source };
}

describe("the closed-period rule", () => {
  it("closes a fiscal year once the calendar year after it has ended", () => {
    expect(isClosedYear(2022, "2024-01-01")).toBe(true);
    expect(isClosedYear(2023, "2024-12-31")).toBe(false);
    expect(daysBetween("2024-02-28", "2024-03-01")).toBe(2);
  });
});

describe("the quota saver", () => {
  it("keeps a closed period of a non-(SP) datapoint for keepDays refresh days, then fetches it again", async () => {
    const m = await month();
    const sources: string[] = [];
    for (let d = 0; d < 9; d++) {
      m.day(d);
      const fdq = m.session(saver);
      sources.push((await ask(fdq, PLAIN_NAME, CLOSED)).source);
      await fdq.close();
    }
    expect(sources).toEqual(["network", ...Array(6).fill("cache"), "network", "cache"]);
    expect(m.sb.usage()).toBe(2 * (LIST + 1));
  });

  it("counts keepDays from the day an answer was fetched when one session runs over several days after loading it", async () => {
    const m = await month();
    m.day(0);
    const first = m.session(saver);
    await ask(first, PLAIN_NAME, CLOSED);
    await first.close();
    // Loaded on the day it was fetched, then kept by the same session day after day.
    const fdq = m.session(saver);
    await fdq.ready();
    const sources: string[] = [];
    for (let d = 0; d < 9; d++) {
      m.day(d);
      sources.push((await ask(fdq, PLAIN_NAME, CLOSED)).source);
    }
    await fdq.close();
    expect(sources).toEqual([...Array(7).fill("cache"), "network", "cache"]);
    expect(m.sb.usage()).toBe(2 * (LIST + 1));
  });

  it("fetches (SP) datapoints and open periods every refresh day", async () => {
    const m = await month();
    for (let d = 0; d < 3; d++) {
      m.day(d);
      const fdq = m.session(saver);
      expect((await ask(fdq, SP_NAME, CLOSED)).source).toBe("network");
      expect((await ask(fdq, PLAIN_NAME, OPEN)).source).toBe("network");
      await fdq.close();
    }
    expect(m.sb.usage()).toBe(3 * (LIST + 2));
  });

  it("keeps nothing beyond its day under the strict policy (the default)", async () => {
    const m = await month();
    for (let d = 0; d < 3; d++) {
      m.day(d);
      const fdq = m.session();
      expect((await ask(fdq, PLAIN_NAME, CLOSED)).source).toBe("network");
      await fdq.close();
    }
    expect(m.sb.usage()).toBe(3 * (LIST + 1));
  });

  it("picks a restatement up within keepDays, while the strict policy picks it up the same day", async () => {
    const m = await month({ restate: "2024-03-06" }); // day 2
    const strict = (d: number) => (m.day(d), m.session({ storage: new MemoryStorage() }));
    m.day(0);
    const first = m.session(saver);
    const before = (await ask(first, PLAIN_NAME, CLOSED)).value;
    await first.close();
    const restated = (await ask(strict(2), PLAIN_NAME, CLOSED)).value;
    expect(restated).not.toBe(before);
    const seen: (number | string)[] = [];
    for (let d = 1; d <= 7; d++) {
      m.day(d);
      const fdq = m.session(saver);
      seen.push((await ask(fdq, PLAIN_NAME, CLOSED)).value);
      await fdq.close();
    }
    // Kept through day 6 (fetched on day 0, keepDays 7), fetched again on day 7: the restated value.
    expect(seen).toEqual([...Array(6).fill(before), restated]);
  });

  it("says in a plan which policy serves the request and the day its answer was fetched", async () => {
    const m = await month();
    m.day(0);
    const first = m.session(saver);
    await ask(first, PLAIN_NAME, CLOSED);
    await first.close();
    m.day(3);
    const later = m.session(saver);
    await later.ready();
    const plan = later.plan({
      kind: "datapoint",
      request: { ticker: "AAPL", dataset: "metrics/ebv", name: PLAIN_NAME, year: CLOSED },
    });
    expect([plan.policy, plan.cached, plan.fetchedOn]).toEqual(["saver", true, "2024-03-04"]);
    await later.close();
  });
});
