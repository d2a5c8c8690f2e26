// Running a slow baseline on a random sample and scaling its time up to the whole workload.
import { seededRandom } from "../src/sandbox/prng";

/** `size` distinct indexes below `total`, uniformly at random, ascending; the same seed picks the same sample. */
export function sampleIndexes(total: number, size: number, seed: number): number[] {
  if (size >= total) return Array.from({ length: total }, (_, i) => i);
  const random = seededRandom(seed);
  const pool = Array.from({ length: total }, (_, i) => i);
  // Partial Fisher-Yates: the first `size` slots end up a uniform sample without replacement.
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random() * (total - i));
    [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
  }
  return pool.slice(0, size).sort((a, b) => a - b);
}

/**
 * Time of `total` requests from the time of a `sampleSize` sample, both sent `concurrency` at a time:
 * wall time grows with the number of rounds (ceil(n / concurrency)), not with n itself.
 */
export function extrapolateSeconds(
  sampleSeconds: number,
  sampleSize: number,
  total: number,
  concurrency = 1,
): number {
  if (sampleSize <= 0) throw new Error("A sample must hold at least one request");
  if (sampleSize >= total) return sampleSeconds;
  return (sampleSeconds * Math.ceil(total / concurrency)) / Math.ceil(sampleSize / concurrency);
}

export interface SamplePlan {
  /** How many requests to run. */
  readonly size: number;
  readonly sampled: boolean;
}

/**
 * Runs the whole set when its expected time (rounds x latency) fits the budget, else the largest
 * sample that does, in whole rounds and never fewer than `minimum` requests.
 */
export function planSample(
  total: number,
  latencySeconds: number,
  concurrency: number,
  budgetSeconds: number,
  minimum = 50,
): SamplePlan {
  const rounds = Math.ceil(total / concurrency);
  if (rounds * latencySeconds <= budgetSeconds) return { size: total, sampled: false };
  const affordableRounds = Math.max(1, Math.floor(budgetSeconds / Math.max(latencySeconds, 1e-6)));
  const size = Math.min(total, Math.max(minimum, affordableRounds * concurrency));
  return { size, sampled: size < total };
}
