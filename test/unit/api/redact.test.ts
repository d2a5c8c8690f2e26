// The one redactor: the key, in every common encoding and as any long fragment, becomes "[API key]"; text
// without the key comes back unchanged (the same string).
import { KEY_PLACEHOLDER, MIN_FRAGMENT, Redactor, redactKey } from "../../../src/api/redact";

const KEY = "Zq7-Fk2pW9xLmC4tRb8sY1vD";
const r = new Redactor(KEY);
const bytes = (s: string): Buffer => Buffer.from(s, "utf8");
/** Numbers in [0, 1) from a seed (a linear congruential generator): the same cases at every run. */
const seeded = (seed: number): (() => number) => {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
};
const hex = (c: string, upper = false): string => {
  const h = c.charCodeAt(0).toString(16).padStart(2, "0");
  return upper ? h.toUpperCase() : h;
};

describe("the redactor", () => {
  it.each<[string, string]>([
    ["as sent", KEY],
    ["in lower case", KEY.toLowerCase()],
    ["in upper case", KEY.toUpperCase()],
    ["percent-encoded, lower-case hex", [...KEY].map((c) => `%${hex(c)}`).join("")],
    ["percent-encoded, upper-case hex", [...KEY].map((c) => `%${hex(c, true)}`).join("")],
    [
      "partly percent-encoded",
      `${KEY.slice(0, 5)}%${hex(KEY[5]!)}${KEY.slice(6, 12)}%${hex(KEY[12]!, true)}${KEY.slice(13)}`,
    ],
    ["as JSON \\u escapes", [...KEY].map((c) => `\\u00${hex(c)}`).join("")],
    ["with some JSON \\u escapes", `${KEY.slice(0, 3)}\\u002D${KEY.slice(4)}`],
    ["as JS \\x escapes", [...KEY].map((c) => `\\x${hex(c)}`).join("")],
    ["as decimal HTML references", [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join("")],
    ["as hex HTML references", [...KEY].map((c) => `&#x${hex(c, true)};`).join("")],
    ["as doubled JSON escapes (a JSON string in JSON)", [...KEY].map((c) => `\\\\u00${hex(c)}`).join("")],
    ["percent-encoded twice", [...KEY].map((c) => `%25${hex(c)}`).join("")],
    ["as HTML references escaped again", [...KEY].map((c) => `&amp;#${c.charCodeAt(0)};`).join("")],
    ["as hex", bytes(KEY).toString("hex")],
    ["as upper-case hex", bytes(KEY).toString("hex").toUpperCase()],
    ["as base64", bytes(KEY).toString("base64")],
    ["as base64url", bytes(KEY).toString("base64url")],
  ])("removes the key %s", (_, encoded) => {
    expect(r.redact(`before ${encoded} after`)).toBe(`before ${KEY_PLACEHOLDER} after`);
  });

  it("removes a key with a slash, a space, a plus and an ampersand in JSON, form and HTML encodings", () => {
    const odd = "tok/en with+plus&amp=42xyz";
    const o = new Redactor(odd);
    expect(o.redact(JSON.stringify({ m: odd }).replace(/\//g, "\\/"))).toBe(`{"m":"${KEY_PLACEHOLDER}"}`);
    expect(o.redact(new URLSearchParams({ k: odd }).toString())).toBe(`k=${KEY_PLACEHOLDER}`);
    expect(o.redact(`<b>${odd.replace(/&/g, "&amp;").replace(/\//g, "&sol;")}</b>`)).toBe(
      `<b>${KEY_PLACEHOLDER}</b>`,
    );
    expect(o.redact(encodeURIComponent(odd))).toBe(KEY_PLACEHOLDER);
  });

  it("removes the key's base64 at each of the 3 byte alignments inside a longer base64 text", () => {
    const at = (prefix: string): string => bytes(`${prefix}${KEY}!!`).toString("base64");
    // The characters that also hold bits of the neighbouring bytes stay: they cannot spell the key.
    expect(r.redact(at(""))).toBe(`${KEY_PLACEHOLDER}ISE=`);
    expect(r.redact(at("x"))).toBe(`e${KEY_PLACEHOLDER}Eh`);
    expect(r.redact(at("xy"))).toBe(`eH${KEY_PLACEHOLDER}hIQ==`);
    expect(r.redact(bytes(`Authorization: ${KEY}`).toString("base64url"))).toBe(
      `QXV0aG9yaXphdGlvbjog${KEY_PLACEHOLDER}`,
    );
  });

  it(`removes any fragment of ${MIN_FRAGMENT} characters or more, and keeps shorter ones`, () => {
    expect(r.redact(`…${KEY.slice(3, 3 + MIN_FRAGMENT)}…`)).toBe(`…${KEY_PLACEHOLDER}…`);
    expect(r.redact(`key ends ${KEY.slice(-MIN_FRAGMENT)}.`)).toBe(`key ends ${KEY_PLACEHOLDER}.`);
    expect(r.redact(bytes(KEY.slice(2, 14)).toString("hex"))).toBe(KEY_PLACEHOLDER);
    const short = KEY.slice(0, MIN_FRAGMENT - 1);
    expect(r.redact(`starts ${short}.`)).toBe(`starts ${short}.`);
  });

  it("removes a fragment in any mix of the encodings of its characters (300 drawn at random)", () => {
    // One of each character's text encodings, drawn per character; a fragment of the key as hex or base64.
    const forms: ((c: string, random: () => number) => string)[] = [
      (c, random) => (random() < 0.5 ? c.toLowerCase() : c.toUpperCase()),
      (c, random) => `%${hex(c, random() < 0.5)}`,
      (c) => `%25${hex(c)}`,
      (c, random) => `\\u00${hex(c, random() < 0.5)}`,
      (c) => `\\\\u00${hex(c)}`,
      (c) => `\\x${hex(c)}`,
      (c) => `&#${c.charCodeAt(0)};`,
      (c, random) => `&#x${hex(c, random() < 0.5)};`,
      (c) => `&amp;#${c.charCodeAt(0)};`,
      (c) => (c === "-" ? "&hyphen;" : c),
    ];
    const random = seeded(20261128);
    for (let n = 0; n < 300; n++) {
      const length = MIN_FRAGMENT + Math.floor(random() * (KEY.length - MIN_FRAGMENT + 1));
      const start = Math.floor(random() * (KEY.length - length + 1));
      const part = KEY.slice(start, start + length);
      const roll = random();
      const encoded =
        roll < 0.1
          ? bytes(part).toString("hex")
          : roll < 0.2
            ? bytes(part).toString(random() < 0.5 ? "base64" : "base64url")
            : [...part].map((c) => forms[Math.floor(random() * forms.length)]!(c, random)).join("");
      expect(r.redact(`{"name":"a ${encoded} b"}`)).toBe(`{"name":"a ${KEY_PLACEHOLDER} b"}`);
    }
  });

  it("removes the key where a long text is cut into pieces to decode, whatever escapes come before it", () => {
    // Texts are decoded 16,384 characters at a time, hex and base64 runs 4,096 digits at a time.
    for (const [escaped, units] of [
      [".", 16_379],
      ["%2E", 16_379],
      ["\\u002e", 16_370],
    ] as const) {
      const before = escaped.repeat(units);
      expect(r.redact(`${before}${KEY} after`)).toBe(`${before}${KEY_PLACEHOLDER} after`);
    }
    const base64 = bytes(`${"y".repeat(3069)}${KEY}${"y".repeat(3000)}`).toString("base64");
    expect(r.redact(base64)).toBe(`${base64.slice(0, 4092)}${KEY_PLACEHOLDER}${base64.slice(4124)}`);
  });

  it("removes every occurrence, in several encodings in one text", () => {
    const text = `a ${KEY} b ${encodeURIComponent(KEY.toLowerCase())} c ${bytes(KEY).toString("base64")} d`;
    expect(r.redact(text)).toBe(`a ${KEY_PLACEHOLDER} b ${KEY_PLACEHOLDER} c ${KEY_PLACEHOLDER} d`);
  });

  it("leaves an answer without the key as it was", () => {
    const answer = JSON.stringify({
      results: [
        { ticker: "AAPL", datapoint: "RETURN_ON_INVESTED_CAPITAL", datavalue: "0.12345678901234567" },
      ],
      text: "aGVsbG8gd29ybGQsIHRoaXMgaXMgYmFzZTY0 deadbeefcafebabe0123456789abcdef %41%42 &amp; \\u0041",
    });
    expect(r.redact(answer)).toBe(answer);
  });

  it("redactKey builds the redactor of a key once and leaves text alone without a key", () => {
    expect(redactKey(`x${KEY}x`, KEY)).toBe(`x${KEY_PLACEHOLDER}x`);
    expect(redactKey(`x${KEY}x`, "")).toBe(`x${KEY}x`);
  });
});
