// The API key must never reach a cell, a log, an event, the cache or a file, even when a service, a gateway
// or a proxy echoes it back, in whatever encoding. One redactor, applied where text leaves the wire
// (transport.ts, right after a body is read) and to every message built from it.
//
// What it finds, for a key K (see docs/architecture.md, "The key"):
// - text encodings of K's characters, each character in any of them, mixed freely: as is in any case,
//   %XX (either hex case), + for a space (form encoding), \uXXXX, \xXX and \/ (JSON and JS escapes),
//   &#NN; &#xNN; and the common named entities (&amp; ...), each also escaped again (\\u0041 in a JSON
//   string inside JSON, %2541, &amp;#65;);
// - K's UTF-8 bytes as hex (either case) and as base64 or base64url (with or without padding, at every byte
//   alignment inside a longer base64 text);
// - in each of these, any fragment of K of MIN_FRAGMENT characters or more (the whole key when shorter),
//   so a cut, a prefix or a suffix of the key goes too; a fragment of digits only stays (numbers).
// The key's forms are computed once per key (a Redactor); a text is first scanned for runs of characters
// that could encode the key at all, so a text without one costs a few regular-expression scans. Every step
// is linear in the key's length (once per key) and in the text's: the parts of the key are found with a
// suffix automaton, never by comparing each candidate with the key, so no key and text chosen by an
// attacker (a 7,000-digit key against a 7,000-digit path) make it slow.
import { decodeBase64Run, decodeHexRun, decodeTextRun, type Decoded } from "./redact-decode";

export const KEY_PLACEHOLDER = "[API key]";

/**
 * The shortest part of the key that is removed on its own. 10 characters of a random key (60 bits or more)
 * never occur by chance in an answer; a shorter part gives too little away to be worth the false hits.
 */
export const MIN_FRAGMENT = 10;

/** The longest run of possible key characters read in one piece. */
const RUN_PIECE = 4096;

/** Keys shorter than this (in bytes) are not looked for as hex or base64: by chance hits would be common. */
const MIN_BINARY_KEY = 6;

/** A character escaped where needed to stand for itself in a regular-expression class. */
const classEscape = (c: string): string => (/[\\\]^[-]/.test(c) ? `\\${c}` : c);

/** Space and plus compare equal: form encoding writes a space as "+". */
const canonical = (c: string): string => {
  const lower = c.toLowerCase();
  const one = lower.length === 1 ? lower : c;
  return one === " " ? "+" : one;
};

interface Matcher {
  /** The key, as compared (canonical characters, or lower-case UTF-8 bytes as Latin-1). */
  key: string;
  /** The suffix automaton of the key read backwards: which texts are parts of the key, in linear time. */
  automaton: Automaton;
  min: number;
}

/**
 * The suffix automaton of a text (Blumer et al.): one state per class of its substrings, built in time linear
 * in the text's length. Walking another text through it tells, for every position, the longest part of the
 * first text ending there (matching statistics), in time linear in the other text's length: no comparison
 * of a part with the key is repeated, whatever the key and the text (digits against a digit key included).
 */
interface Automaton {
  next: Map<number, number>[];
  link: Int32Array;
  len: Int32Array;
}

function automaton(text: string): Automaton {
  const size = 2 * text.length + 2;
  const next: Map<number, number>[] = [new Map()];
  const link = new Int32Array(size).fill(-1);
  const len = new Int32Array(size);
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const cur = next.length;
    next.push(new Map());
    len[cur] = len[last]! + 1;
    let p = last;
    while (p !== -1 && !next[p]!.has(c)) {
      next[p]!.set(c, cur);
      p = link[p]!;
    }
    if (p === -1) link[cur] = 0;
    else {
      const q = next[p]!.get(c)!;
      if (len[p]! + 1 === len[q]) link[cur] = q;
      else {
        const clone = next.length;
        next.push(new Map(next[q]));
        len[clone] = len[p]! + 1;
        link[clone] = link[q]!;
        while (p !== -1 && next[p]!.get(c) === q) {
          next[p]!.set(c, clone);
          p = link[p]!;
        }
        link[q] = clone;
        link[cur] = clone;
      }
    }
    last = cur;
  }
  return { next, link, len };
}

function matcher(key: string): Matcher {
  return { key, automaton: automaton([...key].reverse().join("")), min: Math.min(MIN_FRAGMENT, key.length) };
}

/**
 * For every unit, the length of the longest part of the key that starts there: `units` read backwards
 * through the automaton of the key read backwards. Linear in the units' length.
 */
function longestParts(units: string, a: Automaton): Int32Array {
  const out = new Int32Array(units.length);
  let state = 0;
  let length = 0;
  for (let i = units.length - 1; i >= 0; i--) {
    const c = units.charCodeAt(i);
    while (state !== 0 && !a.next[state]!.has(c)) {
      state = a.link[state]!;
      length = a.len[state]!;
    }
    const to = a.next[state]!.get(c);
    if (to === undefined) length = 0;
    else {
      state = to;
      length++;
    }
    out[i] = length;
  }
  return out;
}

/**
 * The parts of `units` (one compared character each) that are parts of the key of `min` characters or more,
 * as [first unit, unit after the last), longest first from the left. Linear in the units' length (and the
 * key's, once per key): the cost is bounded whatever text and key a hostile client or service chooses.
 */
function findParts(units: string, m: Matcher): [number, number][] {
  const found: [number, number][] = [];
  if (units.length < m.min) return found;
  const longest = longestParts(units, m.automaton);
  // Non-digits among the first k units, so that "is this part only digits" costs one subtraction.
  const nonDigits = new Int32Array(units.length + 1);
  for (let i = 0; i < units.length; i++) {
    const c = units.charCodeAt(i);
    nonDigits[i + 1] = nonDigits[i]! + (c >= 48 && c <= 57 ? 0 : 1);
  }
  for (let s = 0; s + m.min <= units.length;) {
    const e = s + longest[s]!;
    // Digits alone are what answers are made of (values have 17 decimals): a part of the key that is
    // only digits goes only as the whole key.
    const digitsOnly = nonDigits[e] === nonDigits[s];
    if (e - s < m.min || (e - s < m.key.length && digitsOnly)) {
      s++;
      continue;
    }
    found.push([s, e]);
    s = e;
  }
  return found;
}

const latin1Lower = (bytes: string): string => bytes.replace(/[A-Z]/g, (c) => c.toLowerCase());

export class Redactor {
  private readonly text: Matcher;
  private readonly bytes: Matcher | undefined;
  private readonly textRuns: RegExp;
  private readonly hexRuns: RegExp | undefined;
  private readonly base64Runs: RegExp | undefined;
  /** Characters the longest encoding of the key can take (10 per character: "&#x10FFFF;"). */
  private readonly overlap: number;

  constructor(readonly apiKey: string) {
    this.text = matcher([...apiKey].map(canonical).join(""));
    // One Latin-1 character per UTF-8 byte (TextEncoder: Buffer does not exist in Excel's webview).
    const utf8 = String.fromCharCode(...new TextEncoder().encode(apiKey));
    this.bytes = utf8.length >= MIN_BINARY_KEY ? matcher(latin1Lower(utf8)) : undefined;
    // Raw characters of the key (both cases, space and plus alike), or any escape of one character.
    const raw = new Set<string>();
    for (const c of apiKey) for (const v of [c, c.toLowerCase(), c.toUpperCase()]) raw.add(classEscape(v));
    if (raw.has(" ") || raw.has("+")) raw.add(" ").add("\\+");
    const escape =
      '%(?:25)*[0-9a-f]{2}|\\\\+u[0-9a-f]{4}|\\\\+x[0-9a-f]{2}|\\\\+[\\\\/"]|&(?:amp;)*#[0-9]{1,7};?|&(?:amp;)*#x[0-9a-f]{1,6};?|&(?:amp;)*[a-z]{2,8};|\\+';
    this.overlap = 10 * apiKey.length + 16;
    // Runs are read in pieces of at most `cap` characters that overlap by more than the key's longest
    // encoding: an unbounded run of millions of characters overflows the regular-expression stack.
    const cap = Math.max(RUN_PIECE, 4 * this.overlap);
    this.textRuns = new RegExp(`(?:${escape}|[${[...raw].join("")}]){${this.text.min},${cap}}`, "giu");
    if (this.bytes) {
      const b = this.bytes.min;
      this.hexRuns = new RegExp(`[0-9a-f]{${2 * b},${cap}}`, "gi");
      // b bytes take at least ceil(8b/6) characters, whatever their alignment.
      this.base64Runs = new RegExp(`[A-Za-z0-9+/_-]{${Math.ceil((8 * b) / 6)},${cap}}`, "g");
    }
  }

  /**
   * `text` with every encoding and every long fragment of the key replaced by "[API key]". With a
   * `deadline` (performance.now() time) a text that takes longer throws RedactionOverBudget: the caller
   * then answers without the text rather than stall everything else (a server's event loop).
   */
  redact(text: string, deadline = Infinity): string {
    if (!this.apiKey || text.length < this.text.min) return text;
    const spans: [number, number][] = [];
    this.scan(text, this.textRuns, (run) => [decodeTextRun(run, canonical)], this.text, spans, deadline);
    if (this.bytes) {
      const hex = (run: string): Decoded[] => [0, 1].map((p) => decodeHexRun(run, p));
      this.scan(text, this.hexRuns!, hex, this.bytes, spans, deadline);
      const base64 = (run: string): Decoded[] => [0, 1, 2, 3].map((o) => decodeBase64Run(run, o));
      this.scan(text, this.base64Runs!, base64, this.bytes, spans, deadline, true);
    }
    return spans.length === 0 ? text : replaceSpans(text, spans);
  }

  /** Adds the spans of `text` where a run of `runs`, decoded each way `decode` knows, holds part of the key. */
  private scan(
    text: string,
    runs: RegExp,
    decode: (run: string) => Decoded[],
    m: Matcher,
    spans: [number, number][],
    deadline: number,
    padded = false,
  ): void {
    runs.lastIndex = 0;
    const cap = Math.max(RUN_PIECE, 4 * this.overlap);
    for (let match = runs.exec(text); match; match = runs.exec(text)) {
      if (deadline !== Infinity && performance.now() > deadline) throw new RedactionOverBudget();
      const at = match.index;
      // A piece of a longer run: the next piece starts early enough to hold a key cut by this one's end.
      if (match[0].length === cap) runs.lastIndex = at + cap - this.overlap;
      for (const d of decode(match[0])) {
        for (const [s, e] of findParts(d.units, m)) {
          let end = at + d.end(e - 1);
          // Base64's padding after the key's last character goes with it.
          while (padded && text[end] === "=") end++;
          spans.push([at + d.start(s), end]);
        }
      }
    }
  }
}

/** A redaction given a deadline did not finish by it (the text is not returned, redacted or not). */
export class RedactionOverBudget extends Error {
  override name = "RedactionOverBudget";
  constructor() {
    super("the text took too long to redact");
  }
}

/** `text` with each of `spans` (merged where they overlap or touch) replaced by the placeholder. */
function replaceSpans(text: string, spans: [number, number][]): string {
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (let i = 0; i < spans.length;) {
    const start = spans[i]![0];
    let end = spans[i]![1];
    for (i++; i < spans.length && spans[i]![0] <= end; i++) end = Math.max(end, spans[i]![1]);
    out += text.slice(at, start) + KEY_PLACEHOLDER;
    at = end;
  }
  return out + text.slice(at);
}

/** The redactors of the last few keys: a gateway redacts every answer with its account's key. */
const recent = new Map<string, Redactor>();
const RECENT_KEYS = 8;

/** The redactor of `apiKey`, built once while it is in use. */
export function redactorFor(apiKey: string): Redactor {
  let r = recent.get(apiKey);
  if (r) return r;
  r = new Redactor(apiKey);
  if (recent.size >= RECENT_KEYS) recent.delete(recent.keys().next().value as string);
  recent.set(apiKey, r);
  return r;
}

/** `text` with the key, in every encoding the Redactor knows, replaced by "[API key]". */
export function redactKey(text: string, apiKey: string, deadline = Infinity): string {
  return apiKey ? redactorFor(apiKey).redact(text, deadline) : text;
}
