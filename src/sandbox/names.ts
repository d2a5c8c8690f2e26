// Invented security names: syllables no real issuer uses, so nobody mistakes sandbox data for a
// real company's figures.
import type { Rng } from "./prng";

const SYLLABLES = [
  "zor",
  "vek",
  "lun",
  "tra",
  "quo",
  "bix",
  "mel",
  "dra",
  "fen",
  "gal",
  "hov",
  "jin",
  "kel",
  "mar",
  "nox",
  "pel",
  "qui",
  "ros",
  "sul",
  "tav",
  "ulm",
  "vor",
  "wex",
  "yel",
  "zan",
  "oba",
  "ith",
  "ker",
];
const COMPANY_SUFFIXES = [
  "Holdings",
  "Industries",
  "Group",
  "Systems",
  "Labs",
  "Works",
  "Partners",
  "Brands",
];
const FUND_THEMES = ["Growth", "Value", "Income", "Balanced", "Dividend", "Momentum", "Quality", "Global"];

// word() and letters() run some 40,000 times when a sandbox starts (fdq eval --sandbox starts one per process):
// plain loops over constant lists, because every sandbox start pays for them. The order of the draws from rng
// defines the names: keep it.
function word(rng: Rng): string {
  const length = rng.int(2, 3);
  let text = "";
  for (let i = 0; i < length; i++) text += rng.pick(SYLLABLES);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export const companyName = (rng: Rng): string => `${word(rng)} ${word(rng)} ${rng.pick(COMPANY_SUFFIXES)}`;

export const fundName = (rng: Rng, kind: "ETF" | "Fund"): string =>
  `${word(rng)} ${rng.pick(FUND_THEMES)} ${kind}`;

const LETTERS: readonly string[] = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];

export function letters(rng: Rng, length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += rng.pick(LETTERS);
  return text;
}
