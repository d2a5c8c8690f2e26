// Decoders of the runs the redactor (redact.ts) finds: each turns a run of text into units, one compared
// character each, that remember which characters of the run they came from, so a part of the key found
// among the units is replaced where it stands in the text.

/** A decoded run: one compared character per unit, and the run's characters each unit came from. */
export interface Decoded {
  units: string;
  /** Offset in the run of unit k's first character. */
  start: (k: number) => number;
  /** Offset in the run after unit k's last character. */
  end: (k: number) => number;
}

export interface Unit {
  /** The decoded character (one UTF-16 unit; "\0" for what can never be part of the key's form). */
  c: string;
  /** Offsets of the run's characters this unit was decoded from: [start, end). */
  start: number;
  end: number;
}

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

/**
 * One escaped character. Escapes may be escaped again: a JSON string inside JSON (the envelope's body)
 * doubles backslashes (\\u0041), a URL inside a URL writes %2541, HTML inside HTML &amp;#65;.
 */
const TOKEN =
  /%(?:25)*([0-9a-f]{2})|\\+u([0-9a-f]{4})|\\+x([0-9a-f]{2})|\\+([\\/"])|&(?:amp;)*#([0-9]{1,7});?|&(?:amp;)*#x([0-9a-f]{1,6});?|&(?:amp;)*([a-z]{2,8});/iy;

const fromCode = (code: number): string => (code <= 0xffff ? String.fromCharCode(code) : "\0");

/**
 * A run of text with each character as is or escaped (percent, JSON, JS, HTML), `canonical` applied to
 * every decoded character (case and the space/plus of form encoding).
 */
export function decodeTextRun(run: string, canonical: (c: string) => string): Decoded {
  const units: Unit[] = [];
  for (let i = 0; i < run.length;) {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(run);
    let c: string;
    let end: number;
    if (m) {
      end = i + m[0].length;
      const hex = m[1] ?? m[2] ?? m[3] ?? m[6];
      if (hex !== undefined) c = fromCode(parseInt(hex, 16));
      else if (m[4] !== undefined) c = m[4];
      else if (m[5] !== undefined) c = fromCode(Number(m[5]));
      else c = NAMED[m[7]!.toLowerCase()] ?? "\0";
    } else {
      const code = run.codePointAt(i)!;
      end = i + (code > 0xffff ? 2 : 1);
      c = fromCode(code);
    }
    const one = canonical(c);
    units.push({ c: one.length === 1 ? one : "\0", start: i, end });
    i = end;
  }
  return {
    units: units.map((u) => u.c).join(""),
    start: (k) => units[k]!.start,
    end: (k) => units[k]!.end,
  };
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
