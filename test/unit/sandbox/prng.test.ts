// The one seeded randomness: pinned outputs, so the sandbox's data and the bench's samples cannot drift unnoticed.
import { Rng, hash32, seededRandom, unit, unitAfter, unitPrefix } from "../../../src/sandbox/prng";

describe("seeded randomness", () => {
  it("seededRandom is mulberry32: the same seed gives the same sequence", () => {
    const random = seededRandom(1);
    expect([random(), random(), random()]).toEqual([
      0.6270739405881613, 0.002735721180215478, 0.5274470399599522,
    ]);
    const again = seededRandom(1);
    expect(again()).toBe(0.6270739405881613);
  });

  it("Rng is seededRandom keyed by (seed, stream), as unit() is keyed by its parts", () => {
    const rng = new Rng(1, "universe");
    const random = seededRandom(hash32("1|universe"));
    expect([rng.next(), rng.next()]).toEqual([random(), random()]);
    expect(new Rng(1, "universe").next()).toBe(0.04851933033205569);
    expect(new Rng(2, "universe").next()).not.toBe(0.04851933033205569);
  });

  it("unit is a pure function of the seed and key, and unitPrefix/unitAfter compute the same", () => {
    expect(unit(1, "AAPL", "ROIC", 3)).toBe(0.46583306859247386);
    expect(unitAfter(unitPrefix(1, "AAPL", "ROIC"), 3)).toBe(unit(1, "AAPL", "ROIC", 3));
    expect(hash32("fdq")).toBe(3087326722);
  });
});
