// SingleFlight (src/api/single-flight.ts): one in-flight promise per key, free again once it settles.
import { SingleFlight } from "../../../src/api/single-flight";

const deferred = <V>(): { promise: Promise<V>; resolve: (v: V) => void; reject: (e: unknown) => void } => {
  let resolve!: (v: V) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<V>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe("SingleFlight", () => {
  it("callers of one key while it is in flight share one start and one promise", async () => {
    const flights = new SingleFlight<number>();
    const work = deferred<number>();
    let starts = 0;
    const start = (): Promise<number> => {
      starts++;
      return work.promise;
    };
    const first = flights.run("k", start);
    const second = flights.run("k", start);
    expect([first.joined, second.joined, starts]).toEqual([false, true, 1]);
    expect(second.promise).toBe(first.promise);
    work.resolve(7);
    expect(await Promise.all([first.promise, second.promise])).toEqual([7, 7]);
  });

  it("other keys fly on their own", async () => {
    const flights = new SingleFlight<string>();
    const a = flights.run("a", () => Promise.resolve("A"));
    const b = flights.run("b", () => Promise.resolve("B"));
    expect([a.joined, b.joined, flights.size]).toEqual([false, false, 2]);
    expect([await a.promise, await b.promise]).toEqual(["A", "B"]);
  });

  it("the key is free once the answer settles: the next call starts again", async () => {
    const flights = new SingleFlight<number>();
    let starts = 0;
    await flights.run("k", () => Promise.resolve(++starts)).promise;
    expect(flights.has("k")).toBe(false);
    expect(await flights.run("k", () => Promise.resolve(++starts)).promise).toBe(2);
  });

  it("a failure reaches every caller of the flight and is not kept: the next call starts again", async () => {
    const flights = new SingleFlight<number>();
    const work = deferred<number>();
    const first = flights.run("k", () => work.promise);
    const second = flights.run("k", () => Promise.resolve(1));
    work.reject(new Error("down"));
    await expect(first.promise).rejects.toThrow("down");
    await expect(second.promise).rejects.toThrow("down");
    expect(flights.has("k")).toBe(false);
    expect(await flights.run("k", () => Promise.resolve(2)).promise).toBe(2);
  });

  it("a start that throws at once fails its callers the same way, not the caller's stack", async () => {
    const flights = new SingleFlight<number>();
    const flight = flights.run("k", () => {
      throw new Error("bad start");
    });
    await expect(flight.promise).rejects.toThrow("bad start");
    expect(flights.has("k")).toBe(false);
  });
});
