// The project's one source of seeded randomness. Every synthetic number of the sandbox is a pure function of the
// seed and a key, so the sandbox can regenerate any value on demand instead of storing the universe's datapoints;
// the sandbox's faults, the benchmarks' samples and the tests' fuzz inputs draw from the same generators.
// (Unseeded randomness, such as the request module's retry jitter, stays Math.random, injectable where tested.)

const FNV_OFFSET = 0x811c9dc5;
const TWO_32 = 4294967296;
/**
 * Math.imul and Math.floor held in module constants: in a vm context (jest runs every test file in one) each read of a global
 * such as `Math` goes through the context's interceptors, which made these hot loops many times slower there
 * than in a process of their own. Same function, same numbers.
 */
const imul = Math.imul;
const floor = Math.floor;

/** 32-bit FNV-1a hash of a string, optionally continuing from the hash of a prefix. */
export function hash32(text: string, from: number = FNV_OFFSET): number {
  let h = from;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Final avalanche step (from murmur3) so that similar keys give unrelated numbers. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) determined by the seed and the key parts. */
export function unit(seed: number, ...parts: ReadonlyArray<string | number>): number {
  return mix(hash32(`${seed}|${parts.join("|")}`)) / TWO_32;
}

/**
 * unit() split in two for hot loops: `unitPrefix(seed, ...parts)` once, then
 * `unitAfter(prefix, last)` equals `unit(seed, ...parts, last)` at the cost of hashing `last` only.
 */
export const unitPrefix = (seed: number, ...parts: ReadonlyArray<string | number>): number =>
  hash32(`${seed}|${parts.map((p) => `${p}|`).join("")}`);

export const unitAfter = (prefix: number, last: string | number): number =>
  mix(hash32(`${last}`, prefix)) / TWO_32;

/**
 * A sequence of numbers in [0, 1) from a 32-bit seed (mulberry32): the same seed gives the same sequence on
 * every run and platform.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / TWO_32;
  };
}

/**
 * seededRandom() keyed like unit(): one independent stream per (seed, stream name), with helpers, for
 * building the universe in a fixed order and drawing faults in arrival order.
 */
export class Rng {
  readonly next: () => number;

  constructor(seed: number, stream: string) {
    this.next = seededRandom(hash32(`${seed}|${stream}`));
  }

  int(min: number, maxInclusive: number): number {
    return min + floor(this.next() * (maxInclusive - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }
}
