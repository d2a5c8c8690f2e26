// How the redactor (redact.ts) reads a text: the escapes a character of the key may be written in, and runs of
// hex or base64 digits decoded into bytes. The quick reading (readsKey, readsKeyBytes) reads every decoding at
// once and keeps nothing; the full one decodes into units that remember which characters of the text they came
// from, so a part of the key found among them is replaced where it stands in the text. The quick reading finds
// every part the full one finds (and a few it does not keep: parts of digits only).
// The quick reading's steps live in this module with it: tsx, which runs the CLI, reads each of another module's
// exports through a getter, too slow for a step per character.

/** HTML's named references for the characters a key could hold. */
const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  sol: "/",
  bsol: "\\",
  equals: "=",
  plus: "+",
  num: "#",
  percnt: "%",
  colon: ":",
  semi: ";",
  comma: ",",
  period: ".",
  lowbar: "_",
  excl: "!",
  quest: "?",
  commat: "@",
  dollar: "$",
  ast: "*",
  tilde: "~",
  hyphen: "-",
  dash: "-",
  nbsp: " ",
};

/** The character an escape stands for, and where the escape ends. */
export interface Escape {
  /** The UTF-16 unit it stands for; 0 for what can never be part of the key (beyond U+FFFF, an unknown name). */
  code: number;
  /** Offset after its last character. */
  end: number;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 102);
const hexValue = (c: number): number => (c <= 57 ? c - 48 : (c | 32) - 87);
const isLetter = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122;
/** "amp;" in any case at `i`. */
const isAmp = (t: string, i: number): boolean =>
  (t.charCodeAt(i) | 32) === 97 &&
  (t.charCodeAt(i + 1) | 32) === 109 &&
  (t.charCodeAt(i + 2) | 32) === 112 &&
  t.charCodeAt(i + 3) === 59;

function allHex(t: string, from: number, count: number): boolean {
  for (let k = from; k < from + count; k++) if (!isHex(t.charCodeAt(k))) return false;
  return true;
}

function hexNumber(t: string, from: number, count: number): number {
  let value = 0;
  for (let k = from; k < from + count; k++) value = 16 * value + hexValue(t.charCodeAt(k));
  return value;
}

/** A numeric reference whose digits end at `q`, with its optional ";". */
function reference(t: string, q: number, value: number, out: Escape): true {
  out.code = value <= 0xffff ? value : 0;
  out.end = q < t.length && t.charCodeAt(q) === 59 ? q + 1 : q;
  return true;
}

/**
 * The escape of one character starting at `i`, written into `out` (reused: reading a text allocates nothing),
 * or false when none starts there. Letters in any case; the first form that fits, in this order:
 * - `%XX`, also after any number of "25" (a URL in a URL: %2541); when no two hex digits follow the last
 *   "25", that "25" is the escaped character ("%25");
 * - `\uXXXX`, `\xXX`, `\/`, `\"`, each after any number of backslashes (a JSON string inside JSON doubles
 *   them: \\u0041); else two backslashes or more stand for one;
 * - `&#N;` (1-7 digits), `&#xX;` (1-6 hex digits), the ";" optional, and `&name;` (2-8 letters: a name below,
 *   else a character no key holds), each also after any number of "amp;" (HTML in HTML: &amp;#65;); else
 *   `&amp;` itself.
 */
function escapeAt(t: string, i: number, out: Escape): boolean {
  const n = t.length;
  const c = t.charCodeAt(i);
  if (c === 37) {
    let j = i + 1;
    let again = false;
    while (j + 1 < n && t.charCodeAt(j) === 50 && t.charCodeAt(j + 1) === 53) {
      j += 2;
      again = true;
    }
    if (j + 1 < n && isHex(t.charCodeAt(j)) && isHex(t.charCodeAt(j + 1))) {
      out.code = hexNumber(t, j, 2);
      out.end = j + 2;
      return true;
    }
    if (!again) return false;
    out.code = 37;
    out.end = j;
    return true;
  }
  if (c === 92) {
    let j = i + 1;
    while (j < n && t.charCodeAt(j) === 92) j++;
    const d = j < n ? t.charCodeAt(j) : -1;
    if ((d | 32) === 117 && j + 4 < n && allHex(t, j + 1, 4)) {
      out.code = hexNumber(t, j + 1, 4);
      out.end = j + 5;
    } else if ((d | 32) === 120 && j + 2 < n && allHex(t, j + 1, 2)) {
      out.code = hexNumber(t, j + 1, 2);
      out.end = j + 3;
    } else if (d === 47 || d === 34) {
      out.code = d;
      out.end = j + 1;
    } else if (j - i >= 2) {
      out.code = 92;
      out.end = j;
    } else return false;
    return true;
  }
  if (c !== 38) return false;
  let j = i + 1;
  let amps = 0;
  while (j + 3 < n && isAmp(t, j)) {
    j += 4;
    amps++;
  }
  if (j + 1 < n && t.charCodeAt(j) === 35) {
    let q = j + 1;
    let value = 0;
    if (isDigit(t.charCodeAt(q))) {
      for (const last = q + 7; q < last && q < n && isDigit(t.charCodeAt(q)); q++) {
        value = 10 * value + t.charCodeAt(q) - 48;
      }
      return reference(t, q, value, out);
    }
    if ((t.charCodeAt(q) | 32) === 120 && q + 1 < n && isHex(t.charCodeAt(q + 1))) {
      q++;
      for (const last = q + 6; q < last && q < n && isHex(t.charCodeAt(q)); q++) {
        value = 16 * value + hexValue(t.charCodeAt(q));
      }
      return reference(t, q, value, out);
    }
  }
  let q = j;
  while (q < n && q - j <= 8 && isLetter(t.charCodeAt(q))) q++;
  if (q - j >= 2 && q - j <= 8 && q < n && t.charCodeAt(q) === 59) {
    const named = NAMED[t.slice(j, q).toLowerCase()];
    out.code = named === undefined ? 0 : named.charCodeAt(0);
    out.end = q + 1;
    return true;
  }
  if (amps === 0) return false;
  out.code = 38;
  out.end = j;
  return true;
}

/** A decoded run: one compared character per unit, and the run's characters each unit came from. */
export interface Decoded {
  units: string;
  /** Offset in the run of unit k's first character. */
  start: (k: number) => number;
  /** Offset in the run after unit k's last character. */
  end: (k: number) => number;
}

/** A byte with ASCII letters in lower case (bytes are compared in any case). */
const lowerByte = (b: number): number => (b >= 65 && b <= 90 ? b + 32 : b);

/**
 * Bytes as a flat Latin-1 string. In slices (fromCharCode takes its arguments on the stack), never one
 * character at a time: a string of millions of appends is a rope too deep for later reads.
 */
function latin1(codes: Uint8Array, length: number): string {
  const parts: string[] = [];
  for (let i = 0; i < length; i += 8192) {
    parts.push(String.fromCharCode(...codes.subarray(i, Math.min(length, i + 8192))));
  }
  return parts.join("");
}

/** A run of hex digits as lower-case bytes (Latin-1 characters), pairs starting at `parity`. */
export function decodeHexRun(run: string, parity: number): Decoded {
  const codes = new Uint8Array(run.length >> 1);
  let n = 0;
  for (let i = parity; i + 2 <= run.length; i += 2) codes[n++] = lowerByte(parseInt(run.slice(i, i + 2), 16));
  const units = latin1(codes, n);
  return { units, start: (k) => parity + 2 * k, end: (k) => parity + 2 * k + 2 };
}

/** Each base64 or base64url character's six bits (-1: not one). */
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const SIXES = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) SIXES[BASE64.charCodeAt(i)] = i;
SIXES["-".charCodeAt(0)] = 62;
SIXES["_".charCodeAt(0)] = 63;

/**
 * A run of base64 or base64url characters as lower-case bytes (Latin-1 characters), decoding from character `offset`
 * (0-3: where the encoded data's 4-character groups start is not known). Byte k holds bits 8k..8k+7 after
 * the offset, so it spans the characters holding those bits.
 */
export function decodeBase64Run(run: string, offset: number): Decoded {
  const codes = new Uint8Array(Math.ceil((run.length * 6) / 8));
  let n = 0;
  let bits = 0;
  let count = 0;
  for (let i = offset; i < run.length; i++) {
    bits = ((bits << 6) | SIXES[run.charCodeAt(i)]!) & 0xfff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      codes[n++] = lowerByte((bits >> count) & 0xff);
    }
  }
  const units = latin1(codes, n);
  return {
    units,
    start: (k) => offset + Math.floor((8 * k) / 6),
    end: (k) => offset + Math.floor((8 * k + 7) / 6) + 1,
  };
}

/**
 * The character at `i` as the redactor compares it, written into `out`: an escape's character (escapeAt), else
 * the character itself (0 for one beyond U+FFFF: a key's form is compared in UTF-16 units), and where it ends.
 */
export function characterAt(t: string, i: number, out: Escape): void {
  const c = t.charCodeAt(i);
  if ((c === 37 || c === 92 || c === 38) && escapeAt(t, i, out)) return;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length) {
    const d = t.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      out.code = 0;
      out.end = i + 2;
      return;
    }
  }
  out.code = c;
  out.end = i + 1;
}

/** Space and plus compare equal: form encoding writes a space as "+". */
export const canonical = (c: string): string => {
  const lower = c.toLowerCase();
  const one = lower.length === 1 ? lower : c;
  return one === " " ? "+" : one;
};

const canonicalOf = (code: number): number => canonical(String.fromCharCode(code)).charCodeAt(0);
const LATIN1_CANONICAL = Uint16Array.from({ length: 256 }, (_, code) => canonicalOf(code));
/** `canonical` of one UTF-16 unit, without a string for the common ones. */
export const canonicalCode = (code: number): number =>
  code < 256 ? LATIN1_CANONICAL[code]! : canonicalOf(code);

// The quick reading: every decoding of a text at once, each decoded character a step in the key's automaton.

/**
 * A suffix automaton with its steps in one table, indexed by state and by the character's rank among the key's
 * distinct characters: a step is a few array reads, and a character the key does not hold is one.
 */
export interface Steps {
  /** The rank of each character below 256 among the key's distinct characters; -1: not in the key. */
  low: Int32Array;
  /** The same for the others. */
  high: Map<number, number>;
  width: number;
  /** table[state * width + rank]: the next state, or -1. */
  table: Int32Array;
  link: Int32Array;
  len: Int32Array;
}

/**
 * Reading number `k` of a text through `s` goes on with `code`: `state[k]` and `length[k]` become the state and
 * the length of the longest part of the key ending there. True when that part is `min` long or longer.
 */
function step(
  s: Steps,
  state: Int32Array,
  length: Int32Array,
  k: number,
  code: number,
  min: number,
): boolean {
  const rank = code < 256 ? s.low[code]! : (s.high.get(code) ?? -1);
  if (rank < 0) {
    state[k] = 0;
    length[k] = 0;
    return false;
  }
  let at = state[k]!;
  let l = length[k]!;
  for (;;) {
    const to = s.table[at * s.width + rank]!;
    if (to >= 0) {
      at = to;
      l++;
      break;
    }
    if (at === 0) {
      l = 0;
      break;
    }
    at = s.link[at]!;
    l = s.len[at]!;
  }
  state[k] = at;
  length[k] = l;
  return l >= min;
}

/** What a quick reading found: part of the key in the text's characters, in hex, in base64 (or none: 0). */
export const IN_TEXT = 1;
export const IN_HEX = 2;
export const IN_BASE64 = 4;
/** A reading stopped at its deadline. */
export const OVER_BUDGET = -1;

/** The readings of the quick pass: the text's characters, hex at its 2 pair alignments, base64 at its 4. */
const TEXT_READING = 0;
const HEX_READING = 1;
const BASE64_READING = 3;

/** How often (in characters) a long reading looks at its deadline. */
const DEADLINE_EVERY = 1 << 16;

const pastDeadline = (deadline: number): boolean => deadline !== Infinity && performance.now() > deadline;

/** Where the quick readings keep their state: one per redactor, reused (a reading runs to its end at once). */
export interface Scratch {
  /** Each reading's state in the automaton, and the length of the part of the key it has read. */
  state: Int32Array;
  length: Int32Array;
  escape: Escape;
}

export const scratch = (): Scratch => ({
  state: new Int32Array(7),
  length: new Int32Array(7),
  escape: { code: 0, end: 0 },
});

/**
 * IN_TEXT when the text's characters, each as is or escaped (characterAt), hold `min` characters of the key in
 * a row, else 0 (OVER_BUDGET past the deadline).
 */
export function readsKey(text: string, s: Steps, min: number, scratch: Scratch, deadline: number): number {
  const { state, length, escape } = scratch;
  state[TEXT_READING] = 0;
  length[TEXT_READING] = 0;
  let check = DEADLINE_EVERY;
  for (let i = 0; i < text.length; i = escape.end) {
    if (i >= check) {
      if (pastDeadline(deadline)) return OVER_BUDGET;
      check += DEADLINE_EVERY;
    }
    characterAt(text, i, escape);
    if (step(s, state, length, TEXT_READING, canonicalCode(escape.code), min)) return IN_TEXT;
  }
  return 0;
}

/**
 * IN_HEX when the text's runs of hex digits, IN_BASE64 when its runs of base64 or base64url digits, decoded into
 * bytes at every alignment, hold `min` bytes of the key in a row: every byte decodeHexRun and decodeBase64Run
 * decode from a run (and a few more at a run's start), in the same order. A run too short to hold `min` bytes
 * (most of a JSON answer's names and numbers) is only passed over.
 */
export function readsKeyBytes(
  text: string,
  s: Steps,
  min: number,
  scratch: Scratch,
  deadline: number,
): number {
  let found = 0;
  let check = DEADLINE_EVERY;
  for (let i = 0; i < text.length;) {
    if (i >= check) {
      if (pastDeadline(deadline)) return OVER_BUDGET;
      check += DEADLINE_EVERY;
    }
    if (!isBase64(text.charCodeAt(i))) {
      i++;
      continue;
    }
    // A base64 run, and the hex runs in it (hex digits are base64 digits).
    let end = i + 1;
    while (end < text.length && isBase64(text.charCodeAt(end))) end++;
    // A run is read to its end at once, and may be the whole text: each reading of a run looks at the deadline too.
    if (end - i >= Math.ceil((8 * min) / 6)) {
      const inRun = readsKeyBase64(text, i, end, s, min, scratch, deadline);
      if (inRun === OVER_BUDGET) return OVER_BUDGET;
      if (inRun) found |= IN_BASE64;
    }
    while (i < end) {
      let hexEnd = i;
      while (hexEnd < end && isHex(text.charCodeAt(hexEnd))) hexEnd++;
      if (hexEnd - i >= 2 * min) {
        const inRun = readsKeyHex(text, i, hexEnd, s, min, scratch, deadline);
        if (inRun === OVER_BUDGET) return OVER_BUDGET;
        if (inRun) found |= IN_HEX;
      }
      i = Math.max(hexEnd, i + 1);
    }
  }
  return found;
}

const isBase64 = (c: number): boolean => c < 128 && SIXES[c]! >= 0;

/**
 * 1 when the hex run text[from, to), at either pair alignment, holds `min` bytes of the key in a row, else 0
 * (OVER_BUDGET past the deadline).
 */
function readsKeyHex(
  text: string,
  from: number,
  to: number,
  s: Steps,
  min: number,
  scratch: Scratch,
  deadline: number,
): number {
  const { state, length } = scratch;
  for (let k = HEX_READING; k < HEX_READING + 2; k++) state[k] = length[k] = 0;
  let nibble = hexValue(text.charCodeAt(from));
  let check = from + DEADLINE_EVERY;
  for (let i = from + 1; i < to; i++) {
    if (i >= check) {
      if (pastDeadline(deadline)) return OVER_BUDGET;
      check += DEADLINE_EVERY;
    }
    const h = hexValue(text.charCodeAt(i));
    // The byte of the pair that ends here: at the run's even or odd pair alignment.
    if (step(s, state, length, HEX_READING + ((i - from - 1) & 1), lowerByte(16 * nibble + h), min)) return 1;
    nibble = h;
  }
  return 0;
}

/**
 * 1 when the base64 run text[from, to), at any of its 4 alignments, holds `min` bytes of the key in a row, else 0
 * (OVER_BUDGET past the deadline).
 */
function readsKeyBase64(
  text: string,
  from: number,
  to: number,
  s: Steps,
  min: number,
  scratch: Scratch,
  deadline: number,
): number {
  const { state, length } = scratch;
  for (let k = BASE64_READING; k < BASE64_READING + 4; k++) state[k] = length[k] = 0;
  // The run's last 12 bits, and where its character's 6 bits start in the run's bits (mod 8).
  let bits = SIXES[text.charCodeAt(from)]!;
  let phase = 6;
  let check = from + DEADLINE_EVERY;
  for (let i = from + 1; i < to; i++) {
    if (i >= check) {
      if (pastDeadline(deadline)) return OVER_BUDGET;
      check += DEADLINE_EVERY;
    }
    bits = ((bits << 6) | SIXES[text.charCodeAt(i)]!) & 0xfff;
    // The three bytes that end in this character's 6 bits, 2, 4 and 6 bits into them. A byte starting at bit
    // q of the run is the next byte of the decoding whose bytes start at bits q mod 8 (base64 groups of 4
    // characters can start at any of them: bits 0, 6, 12, 18 mod 8 are 0, 6, 4, 2).
    for (let k = 2; k <= 6; k += 2) {
      const byte = lowerByte((bits >> (6 - k)) & 0xff);
      if (step(s, state, length, BASE64_READING + (((phase + k) & 7) >> 1), byte, min)) return 1;
    }
    phase = (phase + 6) & 7;
  }
  return 0;
}
