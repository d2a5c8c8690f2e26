// The gateway's upstream slots (src/gateway/fair-slots.ts) alone: one budget for every account, at most
// `perAccount` for one, the last free slot of each level kept for an account (an analyst) with nothing
// upstream, slots given back to whoever holds the fewest, one deadline, and the figures /healthz shows.
import { GatewayError } from "../../../src/gateway/errors";
import { FairSlots, type SlotGrant } from "../../../src/gateway/fair-slots";

const TIMEOUT_MS = 30_000;

interface Held {
  /** Whether the request has its slot (its task runs). */
  readonly started: boolean;
  readonly grant: SlotGrant | undefined;
  /** Ends the request's task: its slot is given back. */
  finish(): void;
  /** The request's end: its task's value, or the 504 of its deadline. */
  readonly result: Promise<string>;
}

/** One request of `party` of account `tag`, whose task runs until `finish()`. */
function ask(slots: FairSlots, tag: string, party: string, deadlineMs = 10_000): Held {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const held = { started: false, grant: undefined as SlotGrant | undefined, finish: () => finish() };
  const result = slots.run(tag, party, performance.now() + deadlineMs, async (grant) => {
    held.started = true;
    held.grant = grant;
    await done;
    return `${tag}/${party}`;
  });
  return Object.assign(held, { result });
}

/** Lets the tasks of the slots just given start. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const started = (requests: Held[]): boolean[] => requests.map((r) => r.started);

describe("FairSlots: the gateway's upstream slots", () => {
  it("an account with requests upstream never takes the gateway's last free slot: another account's first request takes it at once", async () => {
    const slots = new FairSlots(3, 6, TIMEOUT_MS);
    const a = ["a1", "a2", "a3", "a4", "a5"].map((p) => ask(slots, "A", p));
    await settle();
    expect(started(a)).toEqual([true, true, false, false, false]);
    expect(a.map((r) => r.grant)).toEqual([
      { budget: 3, share: 2, held: 1 },
      { budget: 3, share: 2, held: 2 },
      undefined,
      undefined,
      undefined,
    ]);
    expect(slots.figures()).toEqual({
      budget: 3,
      perAccount: 6,
      inFlight: 2,
      waiting: 3,
      accounts: 1,
      share: 2,
      byAccount: [2],
    });
    const b = ask(slots, "B", "b1");
    await settle();
    expect(b.grant).toEqual({ budget: 3, share: 1, held: 1 });
    expect(slots.figures()).toEqual({
      budget: 3,
      perAccount: 6,
      inFlight: 3,
      waiting: 3,
      accounts: 2,
      share: 1,
      byAccount: [2, 1],
    });
    b.finish();
    await expect(b.result).resolves.toBe("B/b1");
    // B's slot given back is again the last free one: A, which holds two, does not take it.
    await settle();
    expect(started(a)).toEqual([true, true, false, false, false]);
    for (const r of a) r.finish();
    await Promise.all(a.map((r) => r.result));
    expect(slots.figures()).toEqual({
      budget: 3,
      perAccount: 6,
      inFlight: 0,
      waiting: 0,
      accounts: 0,
      share: 2,
      byAccount: [],
    });
  });

  it("a slot given back goes to the waiting account holding the fewest: busy accounts converge on equal shares", async () => {
    const slots = new FairSlots(5, 6, TIMEOUT_MS);
    const a = ["a1", "a2", "a3", "a4", "a5", "a6"].map((p) => ask(slots, "A", p));
    await settle();
    const b = ["b1", "b2"].map((p) => ask(slots, "B", p));
    await settle();
    expect(started(a)).toEqual([true, true, true, true, false, false]);
    expect(started(b)).toEqual([true, false]);
    expect(slots.figures().byAccount).toEqual([4, 1]);
    // One of A's back: 4 upstream, the free one is the last: kept (A and B both have requests upstream).
    a[0]!.finish();
    await settle();
    expect(slots.figures()).toMatchObject({ inFlight: 4, byAccount: [3, 1] });
    // Another: two free; B holds fewer than A, so B's waiting request goes, although A's waited longer.
    a[1]!.finish();
    await settle();
    expect(started(b)).toEqual([true, true]);
    expect(a[4]!.started).toBe(false);
    expect(slots.figures()).toMatchObject({ inFlight: 4, byAccount: [2, 2], share: 2 });
    // Now A holds fewer: A's next goes.
    a[2]!.finish();
    await settle();
    expect(a[4]!.started).toBe(true);
    expect(slots.figures()).toMatchObject({ inFlight: 4, waiting: 1, byAccount: [2, 2] });
    for (const r of [...a, ...b]) r.finish();
    await Promise.all([...a, ...b].map((r) => r.result));
  });

  it("at most perAccount upstream for one account, whatever the budget", async () => {
    const slots = new FairSlots(64, 3, TIMEOUT_MS);
    const a = ["a1", "a2", "a3", "a4"].map((p) => ask(slots, "A", p));
    await settle();
    expect(started(a)).toEqual([true, true, true, false]);
    expect(slots.figures()).toMatchObject({ inFlight: 3, waiting: 1, share: 3, byAccount: [3] });
    for (const r of a) r.finish();
    await Promise.all(a.map((r) => r.result));
  });

  it("an analyst with requests upstream never takes the account's last free slot: a colleague's first request takes it at once", async () => {
    const slots = new FairSlots(64, 3, TIMEOUT_MS);
    const alice = [1, 2, 3, 4].map(() => ask(slots, "team", "alice"));
    await settle();
    expect(started(alice)).toEqual([true, true, false, false]);
    const bob = [ask(slots, "team", "bob")];
    await settle();
    expect(started(bob)).toEqual([true]);
    expect(bob[0]!.grant).toEqual({ budget: 64, share: 3, held: 3 });
    bob.push(ask(slots, "team", "bob"));
    // One of Alice's back: its slot is the account's last free one; Alice and Bob both have requests upstream.
    alice[0]!.finish();
    await settle();
    expect(started(alice)).toEqual([true, true, false, false]);
    expect(started(bob)).toEqual([true, false]);
    const carol = ask(slots, "team", "carol");
    await settle();
    expect(carol.started).toBe(true);
    for (const r of [...alice, ...bob, carol]) r.finish();
    await Promise.all([...alice, ...bob, carol].map((r) => r.result));
  });

  it("within an account, a slot given back goes to the waiting analyst holding the fewest", async () => {
    const slots = new FairSlots(64, 5, TIMEOUT_MS);
    const alice = [1, 2, 3, 4, 5].map(() => ask(slots, "team", "alice"));
    await settle();
    const bob = [ask(slots, "team", "bob"), ask(slots, "team", "bob")];
    await settle();
    expect(started(alice)).toEqual([true, true, true, true, false]);
    expect(started(bob)).toEqual([true, false]);
    alice[0]!.finish();
    alice[1]!.finish();
    await settle();
    // Alice holds 2, Bob 1: Bob's second request goes, although Alice's fifth waited longer.
    expect(bob[1]!.started).toBe(true);
    expect(alice[4]!.started).toBe(false);
    for (const r of [...alice, ...bob]) r.finish();
    await Promise.all([...alice, ...bob].map((r) => r.result));
  });

  it("a request still waiting at its deadline is answered 504 and leaves no trace", async () => {
    const slots = new FairSlots(2, 6, TIMEOUT_MS);
    const first = ask(slots, "A", "a1");
    const queued = ask(slots, "A", "a2", 50);
    await settle();
    expect(started([first, queued])).toEqual([true, false]);
    const error = await queued.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(504);
    expect((error as GatewayError).message).toBe(
      "The FDQ service did not answer within 30 s (the request waited for a free upstream slot all that time) (from the FDQ gateway)",
    );
    expect(slots.figures()).toMatchObject({ inFlight: 1, waiting: 0, accounts: 1 });
    first.finish();
    await first.result;
    expect(slots.figures()).toMatchObject({ inFlight: 0, waiting: 0, accounts: 0, byAccount: [] });
  });

  it("a budget of one slot keeps none: the account holding it is alone upstream", async () => {
    const slots = new FairSlots(1, 6, TIMEOUT_MS);
    const a = ask(slots, "A", "a1");
    const b = ask(slots, "B", "b1");
    await settle();
    expect(started([a, b])).toEqual([true, false]);
    expect(slots.figures()).toMatchObject({ inFlight: 1, waiting: 1, accounts: 2, share: 1 });
    a.finish();
    await a.result;
    await settle();
    expect(b.started).toBe(true);
    b.finish();
    await b.result;
  });
});
