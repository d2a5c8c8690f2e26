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
// Almost no text holds the key, so a text is first read once, character by character, through every decoding
// at once (its escapes; hex at both pair alignments; base64 at its 4 alignments), each decoded character a step
// in an automaton of the key's parts built once per key (a Redactor): a text in which no decoding holds
// MIN_FRAGMENT characters of the key in a row comes back as it is, having allocated nothing. Only a decoding
// that does is decoded again with where each character came from, to replace the parts. Every step is linear
// in the key's length (once per key) and in the text's: the parts of the key are found with suffix automata,
// never by comparing each candidate with the key, so no key and text chosen by an attacker (a 7,000-digit key
// against a 7,000-digit path) make it slow.
import {
  IN_BASE64,
  IN_HEX,
  IN_TEXT,
  OVER_BUDGET,
  canonical,
  canonicalCode,
  characterAt,
  decodeBase64Run,
  decodeHexRun,
  readsKey,
  readsKeyBytes,
  scratch,
  type Decoded,
  type Escape,
  type Steps,
} from "./redact-decode";

export const KEY_PLACEHOLDER = "[API key]";

/**
 * The shortest part of the key that is removed on its own. 10 characters of a random key (60 bits or more)
 * never occur by chance in an answer; a shorter part gives too little away to be worth the false hits.
 */
export const MIN_FRAGMENT = 10;

/** The longest run of hex or base64 digits decoded in one piece. */
const RUN_PIECE = 4096;

/** Characters of a text decoded at once to replace the key's parts: what a long text costs stays bounded. */
const TEXT_PIECE = 16384;

/** Keys shorter than this (in bytes) are not looked for as hex or base64: by chance hits would be common. */
const MIN_BINARY_KEY = 6;

/**
 * The largest table of an automaton's steps (its states x the key's distinct characters). A key beyond it
 * (thousands of distinct characters) skips the quick reading: every text is decoded in full, still linearly.
 */
const MAX_STEP_TABLE = 1 << 22;

interface Matcher {
  /** The key, as compared (canonical characters, or lower-case UTF-8 bytes as Latin-1). */
  key: string;
  /** The suffix automaton of the key read backwards: which texts are parts of the key, in linear time. */
  automaton: Automaton;
  /** The key's own automaton as a table, for the quick reading (undefined: too large a table). */
  steps: Steps | undefined;
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

function steps(key: string): Steps | undefined {
  const low = new Int32Array(256).fill(-1);
  const high = new Map<number, number>();
  let width = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 256 && low[c] === -1) low[c] = width++;
    else if (c >= 256 && !high.has(c)) high.set(c, width++);
  }
  const a = automaton(key);
  if (a.next.length * width > MAX_STEP_TABLE) return undefined;
  const table = new Int32Array(a.next.length * width).fill(-1);
  a.next.forEach((moves, state) => {
    for (const [c, to] of moves) table[state * width + (c < 256 ? low[c]! : high.get(c)!)] = to;
  });
  return { low, high, width, table, link: a.link, len: a.len };
}

function matcher(key: string): Matcher {
  return {
    key,
    automaton: automaton([...key].reverse().join("")),
    steps: steps(key),
    min: Math.min(MIN_FRAGMENT, key.length),
  };
}

/**
 * For every unit, the length of the longest part of the key that starts there: `units` read backwards
 * through the automaton of the key read backwards. Linear in the units' length.
 */
function longestParts(units: ArrayLike<number>, n: number, a: Automaton): Int32Array {
  const out = new Int32Array(n);
  let state = 0;
  let length = 0;
  for (let i = n - 1; i >= 0; i--) {
    const c = units[i]!;
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
 * The parts of the first `n` units (one compared character each) that are parts of the key of `min` characters
 * or more, as [first unit, unit after the last), longest first from the left. Linear in the units' length (and
 * the key's, once per key): the cost is bounded whatever text and key a hostile client or service chooses.
 */
function findParts(units: ArrayLike<number>, n: number, m: Matcher): [number, number][] {
  const found: [number, number][] = [];
  if (n < m.min) return found;
  const longest = longestParts(units, n, m.automaton);
  // Non-digits among the first k units, so that "is this part only digits" costs one subtraction.
  const nonDigits = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const c = units[i]!;
    nonDigits[i + 1] = nonDigits[i]! + (c >= 48 && c <= 57 ? 0 : 1);
  }
  for (let s = 0; s + m.min <= n;) {
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

export class Redactor {
  private readonly text: Matcher;
  private readonly bytes: Matcher | undefined;
  private readonly hexRuns: RegExp | undefined;
  private readonly base64Runs: RegExp | undefined;
  /** Characters the longest encoding of the key can take (10 per character: "&#x10FFFF;"). */
  private readonly overlap: number;
  private readonly scratch = scratch();

  constructor(readonly apiKey: string) {
    this.text = matcher([...apiKey].map(canonical).join(""));
    // One Latin-1 character per UTF-8 byte (TextEncoder: Buffer does not exist in Excel's webview).
    const utf8 = String.fromCharCode(...new TextEncoder().encode(apiKey));
    this.bytes =
      utf8.length >= MIN_BINARY_KEY ? matcher(utf8.replace(/[A-Z]/g, (c) => c.toLowerCase())) : undefined;
    this.overlap = 10 * apiKey.length + 16;
    // Runs are read in pieces of at most `cap` characters that overlap by more than the key's longest
    // encoding: an unbounded run of millions of characters overflows the regular-expression stack.
    const cap = Math.max(RUN_PIECE, 4 * this.overlap);
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
    const found = this.quickReading(text, deadline);
    if (found === 0) return text;
    const spans: [number, number][] = [];
    if (found & IN_TEXT) this.textSpans(text, spans, deadline);
    if (found & IN_HEX) {
      const hex = (run: string): Decoded[] => [0, 1].map((p) => decodeHexRun(run, p));
      this.scan(text, this.hexRuns!, hex, spans, deadline);
    }
    if (found & IN_BASE64) {
      const base64 = (run: string): Decoded[] => [0, 1, 2, 3].map((o) => decodeBase64Run(run, o));
      this.scan(text, this.base64Runs!, base64, spans, deadline, true);
    }
    return spans.length === 0 ? text : replaceSpans(text, spans);
  }

  /**
   * Which decodings of `text` hold `min` characters of the key in a row: one pass, nothing allocated. It
   * finds every part the full decodings find (they decode the same characters: the text with the same
   * escapes, and hex and base64 runs, each at every alignment), and more (parts of digits only among them).
   */
  private quickReading(text: string, deadline: number): number {
    const { text: t, bytes: b } = this;
    const inText = t.steps ? readsKey(text, t.steps, t.min, this.scratch, deadline) : IN_TEXT;
    if (inText === OVER_BUDGET) throw new RedactionOverBudget();
    if (!b) return inText;
    const inBytes = b.steps
      ? readsKeyBytes(text, b.steps, b.min, this.scratch, deadline)
      : IN_HEX | IN_BASE64;
    if (inBytes === OVER_BUDGET) throw new RedactionOverBudget();
    return inText | inBytes;
  }

  /**
   * Adds the spans of `text` where its characters, each as is or escaped, hold part of the key. Decoded in
   * pieces that overlap by the key's length less one character, so that each part of the key lies whole in one.
   */
  private textSpans(text: string, spans: [number, number][], deadline: number): void {
    const m = this.text;
    const keep = m.key.length - 1;
    // A text has no more units than characters.
    const size = Math.min(text.length, Math.max(TEXT_PIECE, 4 * m.key.length));
    const units = new Uint16Array(size);
    // Where each unit starts in the text; at[n] is where the last one ends.
    const at = new Int32Array(size + 1);
    const escape: Escape = { code: 0, end: 0 };
    let n = 0;
    for (let i = 0; i < text.length;) {
      characterAt(text, i, escape);
      units[n] = canonicalCode(escape.code);
      at[n] = i;
      i = escape.end;
      at[++n] = i;
      if (n < size && i < text.length) continue;
      overBudget(deadline);
      for (const [s, e] of findParts(units, n, m)) spans.push([at[s]!, at[e]!]);
      units.copyWithin(0, n - keep, n);
      at.copyWithin(0, n - keep, n + 1);
      n = keep;
    }
  }

  /** Adds the spans of `text` where a run of `runs`, decoded each way `decode` knows, holds part of the key. */
  private scan(
    text: string,
    runs: RegExp,
    decode: (run: string) => Decoded[],
    spans: [number, number][],
    deadline: number,
    padded = false,
  ): void {
    const m = this.bytes!;
    runs.lastIndex = 0;
    const cap = Math.max(RUN_PIECE, 4 * this.overlap);
    for (let match = runs.exec(text); match; match = runs.exec(text)) {
      overBudget(deadline);
      const at = match.index;
      // A piece of a longer run: the next piece starts early enough to hold a key cut by this one's end.
      if (match[0].length === cap) runs.lastIndex = at + cap - this.overlap;
      for (const d of decode(match[0])) {
        for (const [s, e] of findParts(codes(d.units), d.units.length, m)) {
          let end = at + d.end(e - 1);
          // Base64's padding after the key's last character goes with it.
          while (padded && text[end] === "=") end++;
          spans.push([at + d.start(s), end]);
        }
      }
    }
  }
}

/** A Latin-1 string's characters as numbers. */
const codes = (units: string): Uint8Array => Uint8Array.from(units, (c) => c.charCodeAt(0));

function overBudget(deadline: number): void {
  if (deadline !== Infinity && performance.now() > deadline) throw new RedactionOverBudget();
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
