// /v1/*: the FDQ service on the gateway's origin, with the client's own key (pass-through) or, in team
// mode, the gateway's key behind each analyst's gateway token (authenticate). A request
// that names a request of the spec (RequestKey.parse) is answered from the account's refresh day when it
// can be: identical requests in flight go upstream once (of every instance on one Redis), and 200 answers
// and the spec's "does not exist" answers are kept for the day under the account tag. Anything else is
// relayed as the service answered.
// The account's ledger counts the units of what went upstream; after a "Limit Exceeded" the account
// stops until the month turns.
import { Hono, type MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { accountTag } from "../api/account-tag";
import { redactKey } from "../api/redact";
import { decodeEnvelope, errorMessageOf, parseJson } from "../api/decode";
import { priceOf, type PricingOptions } from "../api/pricing";
import type { RefreshDayClock } from "../api/refresh-day";
import { RequestKey } from "../api/request-key";
import { QuotaExhaustedError, type FdqError } from "../api/errors";
import { errorFromAnswer } from "../api/response-errors";
import { parseRetryAfter } from "../api/retry";
import type { Account, Accounts } from "./accounts";
import type { FlightOutcome, Flights } from "./flights";
import type { GatewayEnv } from "./env";
import { GATEWAY_SUFFIX, GatewayError, noKey, unknownToken } from "./errors";
import type { GatewayTokens } from "./tokens";
import type { AnswerStore, StoredAnswer } from "./store";
import { fetchUpstream, type UpstreamAnswer, type UpstreamOptions } from "./upstream";

/** Team mode: the gateway's own key upstream, and the analysts' tokens that unlock it. */
export interface TeamOptions {
  upstreamApiKey: string;
  tokens: GatewayTokens;
}

export interface AuthOptions {
  /** Undefined: pass-through keys. */
  team: TeamOptions | undefined;
}

export interface ProxyOptions extends UpstreamOptions, AuthOptions {
  /** The FDQ base URL including /v1, without a trailing slash. */
  upstream: string;
  accounts: Accounts;
  store: AnswerStore;
  /** Who fetches a request no instance has kept (localFlights, or RedisFlights across instances). */
  flights: Flights;
  clock: RefreshDayClock;
  pricing: PricingOptions;
  now: () => number;
}

/**
 * What the request module makes of a failed answer (its one status-and-message table): a "does not exist"
 * answer is remembered for the day, "Limit Exceeded" is a spent quota.
 */
const errorOf = (a: UpstreamAnswer): FdqError =>
  errorFromAnswer({
    status: a.status,
    message: errorMessageOf(parseJson(a.body)?.json),
    detail: "",
    retryAfterMs: parseRetryAfter(a.retryAfter, Date.now()),
  });

/** Whether an answer of the service may be kept for the day, and the records of a data answer. */
export function keepable(answer: UpstreamAnswer): { keep: boolean; records?: number } {
  const parsed = parseJson(answer.body);
  if (!parsed) return { keep: false };
  if (answer.status === 200) {
    try {
      const envelope = decodeEnvelope(parsed.json);
      if (!envelope.ok) return { keep: false };
      const results = envelope.results;
      return { keep: true, ...(Array.isArray(results) ? { records: results.length } : {}) };
    } catch {
      return { keep: false }; // a malformed 200 is relayed, never kept
    }
  }
  return { keep: answer.status >= 400 && answer.status < 500 && errorOf(answer).remembered };
}

const isLimitExceeded = (a: UpstreamAnswer): boolean =>
  a.status === 429 && errorOf(a) instanceof QuotaExhaustedError;

/** Only reads: OPTIONS is answered here, anything but GET/HEAD is refused before the key is looked at. */
export const onlyReads: MiddlewareHandler<GatewayEnv> = async (c, next) => {
  const method = c.req.method;
  if (method === "OPTIONS") {
    c.set("cache", "bypass");
    return c.body(null, 204, { Allow: "GET, HEAD, OPTIONS" });
  }
  if (method !== "GET" && method !== "HEAD") {
    throw new GatewayError(405, `Method Not Allowed${GATEWAY_SUFFIX}`, { Allow: "GET, HEAD, OPTIONS" });
  }
  await next();
};

/**
 * Which key goes upstream. Pass-through: the client's x-api-key (none: 403 from the gateway). Team mode:
 * x-api-key is the analyst's gateway token, which the tokens file must hold (else 403 from the gateway),
 * and the gateway's own key goes upstream. Either way nothing goes upstream before this passes.
 */
export function authenticate(o: AuthOptions): MiddlewareHandler<GatewayEnv> {
  return async function authenticateMiddleware(c, next) {
    const key = c.req.header("x-api-key");
    if (o.team) {
      const analyst = await o.team.tokens.lookup(key);
      if (analyst === undefined) throw unknownToken();
      c.set("analyst", analyst);
      c.set("upstreamKey", o.team.upstreamApiKey);
    } else {
      if (key === undefined || key.trim() === "") throw noKey();
      c.set("upstreamKey", key);
    }
    await next();
  };
}

function relay(answer: StoredAnswer & { retryAfter?: string | undefined }): Response {
  const headers: Record<string, string> = { "Content-Type": answer.contentType };
  if (answer.retryAfter !== undefined) headers["Retry-After"] = answer.retryAfter;
  return new Response(answer.body, { status: answer.status as ContentfulStatusCode, headers });
}

function quotaSpent(account: Account): GatewayError {
  return new GatewayError(
    429,
    `Limit Exceeded${GATEWAY_SUFFIX}: the account's quota was spent this month; it resets on ${account.ledger.resetsOn}.`,
  );
}

export function proxyRoutes(o: ProxyOptions): Hono<GatewayEnv> {
  const flights = new Map<string, Promise<FlightOutcome>>();
  let today = "";
  const app = new Hono<GatewayEnv>();

  /** One upstream request in one of the account's slots; learns of a spent quota. */
  const send = (account: Account, url: string, apiKey: string): Promise<UpstreamAnswer> =>
    account.slots.run(async () => {
      // Checked again in the slot: another request (of any instance) may have met "Limit Exceeded".
      if (await account.ledger.isExhausted()) throw quotaSpent(account);
      const fetched = await fetchUpstream(url, "GET", apiKey, o);
      // Team mode: should the service ever echo the gateway's key, no analyst, store or log sees it.
      const answer = o.team ? { ...fetched, body: redactKey(fetched.body, apiKey) } : fetched;
      if (isLimitExceeded(answer)) await account.ledger.markExhausted();
      return answer;
    });

  app.use("*", onlyReads, authenticate(o));
  app.get("*", async (c) => {
    const apiKey = c.get("upstreamKey");
    const account = await o.accounts.get(accountTag(apiKey));
    const url = new URL(c.req.url);
    const tail = url.pathname.replace(/^\/v1\/?/, "") + url.search;
    const key = RequestKey.parse(tail);
    c.set("units", 0);
    if (!key) {
      c.set("cache", "bypass");
      if (await account.ledger.isExhausted()) throw quotaSpent(account);
      return relay(await send(account, `${o.upstream}/${tail}`, apiKey));
    }

    const day = o.clock.label(o.now());
    if (day !== today) {
      today = day;
      void o.store.dropBefore(day);
    }
    const id = key.serialize();
    const stored = await o.store.get(day, account.tag, id);
    if (stored) {
      c.set("cache", "hit");
      return relay(stored);
    }
    // Looked up with no await since the store's miss, so a flight cannot end unseen in between. A spent
    // quota is checked in the flight (send), where every waiter on the flight learns of it too.
    const flightKey = `${day}\n${account.tag}\n${id}`;
    let flight = flights.get(flightKey);
    const joined = flight !== undefined;
    if (!flight) {
      // Runs unless another instance's flight answers; then this instance counts no units.
      flight = o.flights.run(day, account.tag, id, async () => {
        const kept = await o.store.get(day, account.tag, id);
        if (kept) return { answer: { ...kept, retryAfter: undefined }, fetchedHere: false };
        // Refused before waiting for a slot; checked again in the slot (send).
        if (await account.ledger.isExhausted()) throw quotaSpent(account);
        const answer = await send(account, key.url(o.upstream), apiKey);
        const { keep, records } = keepable(answer);
        if (answer.status === 200) {
          const units = priceOf(key, o.pricing, records);
          await account.ledger.record(key, units);
          c.set("units", units);
        }
        if (keep) await o.store.set(day, account.tag, id, answer);
        return { answer, fetchedHere: true };
      });
      flights.set(flightKey, flight);
    }
    c.set("cache", joined ? "hit" : "miss");
    try {
      const { answer, fetchedHere } = await flight;
      if (!fetchedHere) c.set("cache", "hit");
      return relay(answer);
    } catch (e) {
      if (e instanceof GatewayError && e.status === 429) c.set("cache", "bypass"); // the quota is spent
      throw e;
    } finally {
      if (!joined) flights.delete(flightKey);
    }
  });
  return app;
}
