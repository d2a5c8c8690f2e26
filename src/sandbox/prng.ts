// Deterministic randomness: every synthetic number is a pure function of the seed and a key, so the
// sandbox can regenerate any value on demand instead of storing the universe's datapoints.

const FNV_OFFSET = 0x811c9dc5;

/** 32-bit FNV-1a hash of a string, optionally continuing from the hash of a prefix. */
export function hash32(text: string, from: number = FNV_OFFSET): number {
  let h = from;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Final avalanche step (from murmur3) so that similar keys give unrelated numbers. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) determined by the seed and the key parts. */
export function unit(seed: number, ...parts: ReadonlyArray<string | number>): number {
  return mix(hash32(`${seed}|${parts.join("|")}`)) / 4294967296;
}

/**
 * unit() split in two for hot loops: `unitPrefix(seed, ...parts)` once, then
 * `unitAfter(prefix, last)` equals `unit(seed, ...parts, last)` at the cost of hashing `last` only.
 */
export const unitPrefix = (seed: number, ...parts: ReadonlyArray<string | number>): number =>
  hash32(`${seed}|${parts.map((p) => `${p}|`).join("")}`);

export const unitAfter = (prefix: number, last: string | number): number =>
  mix(hash32(String(last), prefix)) / 4294967296;

/** A sequential generator (mulberry32) for building the universe in a fixed order. */
export class Rng {
  private state: number;

  constructor(seed: number, stream: string) {
    this.state = hash32(`${seed}|${stream}`);
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }
}
