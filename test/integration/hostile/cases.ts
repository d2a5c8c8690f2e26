// The hostile service's script, shared by the request module's and the CLI's tests: every identifier names
// one case. Echo cases put the key, in one encoding, into an error body or a 200 answer; the others answer
// for something else, too much, too slowly or not a number.
import { envelope, record, startHostile, type HostileServer, type Reply } from "../../support/hostile-server";

/** Has "/", "+" and "=": characters that percent, form, JSON and HTML encodings all write differently. */
export const KEY = "Hk3/vQ9+pZr7LwX2mTn8=yBd4";

const bytes = Buffer.from(KEY, "utf8");
const hex2 = (c: string): string => c.charCodeAt(0).toString(16).padStart(2, "0");

/**
 * The key as a hostile server could echo it, each text safe inside a JSON string (it is put into the
 * body's text as is), with what a message shows of it once redacted.
 */
export const ECHOES: readonly { name: string; wire: string; shown: string }[] = [
  { name: "as sent", wire: KEY, shown: "[API key]" },
  { name: "in lower case", wire: KEY.toLowerCase(), shown: "[API key]" },
  { name: "in upper case", wire: KEY.toUpperCase(), shown: "[API key]" },
  {
    name: "percent-encoded (lower hex)",
    wire: [...KEY].map((c) => `%${hex2(c)}`).join(""),
    shown: "[API key]",
  },
  {
    name: "percent-encoded (upper hex)",
    wire: [...KEY].map((c) => `%${hex2(c).toUpperCase()}`).join(""),
    shown: "[API key]",
  },
  { name: "URL-encoded (partly)", wire: encodeURIComponent(KEY), shown: "[API key]" },
  { name: "URL-encoded in lower case", wire: encodeURIComponent(KEY).toLowerCase(), shown: "[API key]" },
  { name: "form-encoded", wire: new URLSearchParams({ key: KEY }).toString(), shown: "key=[API key]" },
  { name: "base64", wire: bytes.toString("base64"), shown: "[API key]" },
  { name: "base64 without padding", wire: bytes.toString("base64").replace(/=+$/, ""), shown: "[API key]" },
  { name: "base64url", wire: bytes.toString("base64url"), shown: "[API key]" },
  // Basic credentials: the key's bytes start 1 byte into a 3-byte group; "dXNlcj" only holds "user".
  {
    name: "base64 after 'user:'",
    wire: Buffer.from(`user:${KEY}`).toString("base64"),
    shown: "dXNlcj[API key]",
  },
  { name: "hex", wire: bytes.toString("hex"), shown: "[API key]" },
  { name: "upper-case hex", wire: bytes.toString("hex").toUpperCase(), shown: "[API key]" },
  { name: "JSON \\u escapes", wire: [...KEY].map((c) => `\\u00${hex2(c)}`).join(""), shown: "[API key]" },
  {
    name: "some JSON \\u escapes",
    wire: `\\u0048${KEY.slice(1, 7)}\\u002B${KEY.slice(8)}`,
    shown: "[API key]",
  },
  { name: "JSON escaped slash", wire: KEY.replace("/", "\\/"), shown: "[API key]" },
  {
    name: "HTML decimal references",
    wire: [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join(""),
    shown: "[API key]",
  },
  { name: "HTML hex references", wire: [...KEY].map((c) => `&#x${hex2(c)};`).join(""), shown: "[API key]" },
  {
    name: "HTML named references",
    wire: KEY.replace("/", "&sol;").replace("+", "&plus;").replace("=", "&equals;"),
    shown: "[API key]",
  },
  { name: "a 14-character fragment", wire: `…${KEY.slice(4, 18)}…`, shown: "…[API key]…" },
];

/** The ticker (or name, or id) of echo case i: "E0", "E1", ... */
export const echoId = (i: number): string => `E${i}`;

/** Texts that must appear in no output: the key in every encoding above, and its 10-character parts. */
export function leaks(text: string): string[] {
  const found = ECHOES.filter((e) => e.name !== "a 14-character fragment" && text.includes(e.wire)).map(
    (e) => e.name,
  );
  const lower = text.toLowerCase();
  for (let i = 0; i + 10 <= KEY.length; i++) {
    if (lower.includes(KEY.slice(i, i + 10).toLowerCase())) found.push(`fragment ${KEY.slice(i, i + 10)}`);
  }
  // The JSON \u form inside a JSON string inside JSON (an envelope) doubles its backslashes.
  if (text.includes(ECHOES[14]!.wire.replace(/\\/g, "\\\\"))) found.push("double-escaped JSON");
  return found;
}

/** A JSON body with `@@` replaced by `wire` as is (a JSON escape stays an escape). */
const withEcho = (json: string, wire: string): string => json.replace("@@", wire);

export const MB = 1024 * 1024;

/**
 * What the hostile service answers for each path; "AWAY" redirects to `elsewhere` (another origin: another
 * port, or plain http from an https service).
 */
export function hostileScript(elsewhere: string): (path: string) => Reply {
  let throttles = 0;
  return (path: string): Reply => {
    const url = new URL(path, "http://x");
    const id = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    const echo = /^E(\d+)$/.exec(id.replace(/^ECHO_/, ""));
    const wire = echo ? ECHOES[Number(echo[1])]?.wire : undefined;
    const p = url.pathname;
    if (wire !== undefined) {
      // 200 answers: a bare {results} body (decodeEnvelope takes it), so the echo sits at one level of JSON.
      if (p.startsWith("/v1/coverage/stock/")) {
        return {
          body: withEcho(
            JSON.stringify({
              results: [
                { ticker: id, name: "Corp @@", type: "stock", sector: "S", last_trade_date: "2024-01-02" },
              ],
            }),
            wire,
          ),
        };
      }
      if (p.startsWith("/v1/ratings/component/")) {
        // The envelope: a JSON string inside JSON, where an escape's backslash is itself escaped.
        return {
          body: withEcho(
            envelope([{ ticker: id, name: "Corp @@", rating_overall: 2 }]),
            wire.replace(/\\/g, "\\\\"),
          ),
        };
      }
      if (p.startsWith("/v1/datapoint/")) {
        return {
          body: withEcho(
            JSON.stringify({ results: [{ name: id, description: "About @@", endpoints: "/x" }] }),
            wire,
          ),
        };
      }
      if (p.startsWith("/v1/sector/")) {
        const results = [
          { ticker: id, name: "S", prior_year: 0, datapoint: "CATEGORY_TYPE", datavalue: "sector @@" },
        ];
        return { body: withEcho(JSON.stringify({ results }), wire) };
      }
      // Data requests: an error body echoing the key.
      return { status: 400, body: withEcho(JSON.stringify({ message: "bad key @@" }), wire) };
    }
    const year = Number(url.searchParams.get("year") ?? 2023);
    const asked = url.searchParams.get("datapoint") ?? "ROIC";
    const one = (fields: Record<string, string | number> = {}): Reply => ({
      body: envelope([record({ ticker: id, year, datapoint: asked, ...fields })]),
    });
    // HUGE, HUGE1, HUGE2...: 50 MB of a valid-looking answer, written only as fast as it is read.
    if (/^HUGE\d*$/.test(id)) return { repeat: { chunk: " ".repeat(MB), times: 50 } };
    switch (id) {
      case "OK":
        return one({ datavalue: "0.25000000000000000" });
      case "BF.B":
        // Spec fact 5: a second share class answers with the primary ticker.
        return one({ ticker: "BF.A", datavalue: "0.50000000000000000" });
      case "OTHERTICKER":
        return one({ ticker: "MSFT" });
      case "OTHERYEAR":
        return one({ year: year - 1 });
      case "OTHERPERIOD":
        return one({ period: 2, periodtype: "QUARTERLY", periodstring: "QUARTERLY" });
      case "OTHERDATAPOINT":
        return one({ datapoint: "NOPAT" });
      case "DUPLICATE":
        return {
          body: envelope([
            record({ ticker: id, datapoint: asked, datavalue: "1" }),
            record({ ticker: id, datapoint: asked, datavalue: "2" }),
          ]),
        };
      case "HUGEERROR":
        return { status: 503, repeat: { chunk: "x".repeat(MB), times: 50 } };
      case "SLOW":
        return { trickle: { chunks: ['{"results":[', "{", "}", "]}"], everyMs: 400 } };
      case "INFINITE":
        return one({ datavalue: "1e999" });
      case "NAN":
        return one({ datavalue: "NaN" });
      case "EMPTY":
        return one({ datavalue: "" });
      case "THROTTLE":
        // Every other request is a 429 whose Retry-After is not the RFC's: ignored, the backoff decides.
        return ++throttles % 2 === 1
          ? {
              status: 429,
              headers: { "retry-after": "-5" },
              body: JSON.stringify({ message: "Too Many Requests" }),
            }
          : one({ datavalue: "0.75000000000000000" });
      case "AWAY":
        return { status: 302, headers: { location: `${elsewhere}/v1/steal?from=AWAY` }, body: "" };
      default:
        return { status: 404, body: JSON.stringify({ message: "Not Found" }) };
    }
  };
}

/**
 * The hostile service running hostileScript, and `elsewhere`, the other origin its AWAY case redirects to:
 * started before the file's tests and closed after them. Read them inside a test.
 */
export function useHostileService(): { readonly service: HostileServer; readonly elsewhere: HostileServer } {
  let service: HostileServer | undefined;
  let elsewhere: HostileServer | undefined;
  beforeAll(async () => {
    elsewhere = await startHostile(() => ({ body: "{}" }));
    service = await startHostile(hostileScript(elsewhere.origin));
  });
  afterAll(async () => {
    await Promise.all([service?.close(), elsewhere?.close()]);
  });
  return {
    get service() {
      return service!;
    },
    get elsewhere() {
      return elsewhere!;
    },
  };
}

/** The message of an answer that could not be read (`detail`), ending with the caller's base-URL hint. */
export const unreadableWith =
  (hint: string) =>
  (detail: string): string =>
    `The FDQ service sent an answer that could not be read (${detail}). ${hint}`;
