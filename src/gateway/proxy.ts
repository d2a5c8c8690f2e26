// /v1/*: the FDQ service on the gateway's origin, with the client's own key (pass-through) or, in team
// mode, the gateway's key behind each analyst's gateway token (authenticate). Only requests the service
// serves, each priced (pricedRequest), go upstream; any other path is answered 404 here. A request is
// answered from the account's refresh day when it can be: identical requests in flight go upstream once
// (of every instance on one Redis), and what the add-in's day cache keeps (keptForDay: answers and the
// spec's "does not exist" answers) is kept for the day under the account tag (keys.ts names it). Each
// request has one deadline from its arrival; it waits for one of the gateway's upstream slots, fairly
// shared between accounts and within an account between analysts (fair-slots.ts), and its body counts
// against the gateway's budget for bodies in flight (body-budget.ts).
// The account's ledger counts the units of what went upstream; after "Limit Exceeded" the account
// stops until the month turns or `fdq usage --reset`. An account exists only for a key the service
// accepted (accounts.ts).
import { Hono, type MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  accountTag,
  checkAnswer,
  FdqError,
  keptForDay,
  NotInPortfolioError,
  type Outcome,
  outcomeOf,
  parseRetryAfter,
  pricedRequest,
  type PricingOptions,
  QuotaExhaustedError,
  RedactionOverBudget,
  type RequestKey,
  redactKey,
  type RefreshDayClock,
  SingleFlight,
  UPSTREAM_POLICY,
} from "../api";
import type { Accounts } from "./accounts";
import { BudgetTicket, type BodyBudget } from "./body-budget";
import type { GatewayEnv, SlotUse } from "./env";
import {
  GATEWAY_SUFFIX,
  GatewayError,
  impossibleKey,
  MAX_KEY_CHARS,
  noKey,
  notARequest,
  overBudget,
  unknownToken,
} from "./errors";
import type { FailedKeys } from "./failed-keys";
import type { FlightOutcome, Flights } from "./flights";
import { answerKey, localName } from "./keys";
import type { AnswerStore, StoredAnswer } from "./store";
import type { GatewayTokens } from "./tokens";
import {
  fetchUpstream,
  jsonContentType,
  validRetryAfter,
  type UpstreamAnswer,
  type UpstreamOptions,
} from "./upstream";

/** Team mode: the gateway's own key upstream, and the analysts' tokens that unlock it. */
export interface TeamOptions {
  upstreamApiKey: string;
  tokens: GatewayTokens;
}

export interface AuthOptions {
  /** Undefined: pass-through keys. */
  team: TeamOptions | undefined;
  /** Refused keys per client address. */
  failedKeys: FailedKeys;
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
  /** The memory of upstream bodies in flight, all requests together. */
  budget: BodyBudget;
  /** Team mode: how long redacting the team's key from one body may take. */
  redactionBudgetMs: number;
}

/**
 * What the request module makes of an answer (its one reading, with the one factory of errors): the results,
 * or the error it means ("does not exist", "Limit Exceeded", a refused key...).
 */
const outcome = (a: UpstreamAnswer): Outcome =>
  outcomeOf(
    {
      status: a.status,
      contentType: a.contentType,
      text: a.body,
      retryAfterMs: parseRetryAfter(a.retryAfter, Date.now()),
    },
    { maxBodyBytes: UPSTREAM_POLICY.maxBodyBytes },
  );

const errorOf = (a: UpstreamAnswer): FdqError | undefined => {
  const o = outcome(a);
  return "error" in o ? o.error : undefined;
};

/**
 * Whether an answer of the service is kept for the day, by the rule the add-in's day cache keeps by
 * (keptForDay: what it answered, and "does not exist" refusals), and the records of a data answer. With the
 * request's key, its results are read as the client reads them (checkAnswer): an answer that does not match
 * its request (another ticker, year or datapoint) is relayed to this caller, whose client refuses it, but not
 * stored, so the next caller asks the service again rather than meeting it all day.
 */
export function keepable(answer: UpstreamAnswer, key?: RequestKey): { keep: boolean; records?: number } {
  let o = outcome(answer);
  const records = "results" in o && Array.isArray(o.results) ? o.results.length : undefined;
  if (key && "results" in o) {
    try {
      checkAnswer(key, o.results);
    } catch (error) {
      if (!(error instanceof FdqError)) throw error;
      o = { error };
    }
  }
  return { keep: keptForDay(o), ...(records === undefined ? {} : { records }) };
}

const isLimitExceeded = (a: UpstreamAnswer): boolean =>
  a.status === 429 && errorOf(a) instanceof QuotaExhaustedError;

/** The service refused the key itself (not a portfolio refusal, which names a valid key's plan). */
const refusesKey = (a: UpstreamAnswer): boolean =>
  (a.status === 401 || a.status === 403) && !(errorOf(a) instanceof NotInPortfolioError);

/** The service accepted the key: an answer of its own that is not a refusal of the key (5xx: not known). */
const acceptsKey = (a: UpstreamAnswer): boolean => a.status < 500 && !refusesKey(a);

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

/** 1 to 128 visible ASCII characters: what an FDQ key (and a gateway token) can be. */
const POSSIBLE_KEY = new RegExp(`^[\\x21-\\x7e]{1,${MAX_KEY_CHARS}}$`);

/**
 * Which key goes upstream. First, an address with too many refused keys is answered 429, and a key no FDQ
 * key could be is refused (403) before anything touches it. Pass-through: the client's x-api-key (none:
 * 403 from the gateway). Team mode: x-api-key is the analyst's gateway token, which the tokens file must
 * hold (else 403 from the gateway), and the gateway's own key goes upstream. Nothing goes upstream before
 * this passes.
 */
export function authenticate(o: AuthOptions): MiddlewareHandler<GatewayEnv> {
  return async function authenticateMiddleware(c, next) {
    const address = c.get("address");
    o.failedKeys.check(address);
    const key = c.req.header("x-api-key")?.trim();
    if (key === undefined || key === "") throw o.team ? unknownToken() : noKey();
    if (!POSSIBLE_KEY.test(key)) {
      o.failedKeys.refused(address);
      throw impossibleKey();
    }
    if (o.team) {
      const analyst = await o.team.tokens.lookup(key);
      if (analyst === undefined) {
        o.failedKeys.refused(address);
        throw unknownToken();
      }
      c.set("analyst", analyst);
      c.set("party", `analyst:${analyst}`);
      c.set("trustedKey", key);
      c.set("upstreamKey", o.team.upstreamApiKey);
    } else {
      c.set("upstreamKey", key);
    }
    await next();
  };
}

/** The answer with only the headers the gateway allows (a JSON type, a valid Retry-After). */
function relay(answer: StoredAnswer & { retryAfter?: string | undefined }): Response {
  const headers: Record<string, string> = { "Content-Type": jsonContentType(answer.contentType) };
  const retryAfter = validRetryAfter(answer.retryAfter);
  if (retryAfter !== undefined) headers["Retry-After"] = retryAfter;
  return new Response(answer.body, { status: answer.status as ContentfulStatusCode, headers });
}

function quotaSpent(resetsOn: string): GatewayError {
  return new GatewayError(
    429,
    `Limit Exceeded${GATEWAY_SUFFIX}: the account's quota was spent this month; it resets on ${resetsOn} ` +
      "(or with `fdq usage --reset` if the plan was raised).",
  );
}

/** Who sends one upstream request, and with what. */
interface Sending {
  tag: string;
  url: string;
  apiKey: string;
  party: string;
  address: string;
  deadline: number;
  ticket: BudgetTicket;
}

export function proxyRoutes(o: ProxyOptions): Hono<GatewayEnv> {
  const flights = new SingleFlight<FlightOutcome>();
  let today = "";
  const app = new Hono<GatewayEnv>();

  /** Throws the gateway's 429 when the quota of the account of `tag` is known to be spent. */
  const refuseIfSpent = async (tag: string): Promise<void> => {
    const resetsOn = await o.accounts.stoppedUntil(tag);
    if (resetsOn !== undefined) throw quotaSpent(resetsOn);
  };

  /**
   * One upstream request in a slot of the account (or of the keys not accepted yet); `granted` is told what
   * the slot was taken under and how long the request waited for it.
   */
  const send = async (s: Sending, granted: (slot: SlotUse) => void): Promise<UpstreamAnswer> => {
    const asked = performance.now();
    return o.accounts.slots(s.tag).run(s.party, s.deadline, async (grant) => {
      granted({ ...grant, waitMs: Math.round(performance.now() - asked) });
      // Checked again in the slot: another request (of any instance) may have met "Limit Exceeded".
      await refuseIfSpent(s.tag);
      let answer = await fetchUpstream(s.url, s.apiKey, o, { deadline: s.deadline, ticket: s.ticket });
      if (o.team) {
        // Should the service ever echo the gateway's key, no analyst, store or log sees it; a body that
        // takes too long to check is not served (nor kept) rather than stall every other request.
        try {
          answer = {
            ...answer,
            body: redactKey(answer.body, s.apiKey, performance.now() + o.redactionBudgetMs),
          };
        } catch (e) {
          if (e instanceof RedactionOverBudget)
            throw overBudget("the FDQ service's answer took too long to check");
          throw e;
        }
      }
      if (acceptsKey(answer)) {
        const account = await o.accounts.get(s.tag);
        if (isLimitExceeded(answer)) await account.ledger.markExhausted();
      } else if (refusesKey(answer) && !o.team) {
        o.failedKeys.refused(s.address);
      }
      return answer;
    });
  };

  app.use("*", onlyReads, authenticate(o));
  app.get("*", async (c) => {
    const apiKey = c.get("upstreamKey");
    const tag = accountTag(apiKey);
    const url = new URL(c.req.url);
    const request = pricedRequest(url.pathname.replace(/^\/v1\/?/, "") + url.search, o.pricing);
    c.set("units", 0);
    if (!request) throw notARequest();
    if (!o.team && (await o.accounts.find(tag))) c.set("trustedKey", apiKey);
    const ticket = new BudgetTicket(o.budget);
    const sending: Sending = {
      tag,
      url: `${o.upstream}/${request.path}`,
      apiKey,
      party: c.get("party"),
      address: c.get("address"),
      deadline: c.get("arrived") + o.timeoutMs,
      ticket,
    };
    try {
      const day = o.clock.label(o.now());
      if (day !== today) {
        today = day;
        void o.store.dropBefore(day);
      }
      const key = answerKey(day, tag, request.path);
      const stored = await o.store.get(key);
      if (stored) {
        c.set("cache", "hit");
        return relay(stored);
      }
      // Looked up with no await since the store's miss, so a flight cannot end unseen in between. A spent
      // quota is checked in the flight (send), where every waiter on the flight learns of it too.
      // Runs unless another instance's flight answers; then this instance counts no units.
      const { promise: flight, joined } = flights.run(localName(key), () =>
        o.flights.run(key, async () => {
          const kept = await o.store.get(key);
          if (kept) return { answer: { ...kept, retryAfter: undefined }, fetchedHere: false };
          // Refused before waiting for a slot; checked again in the slot (send).
          await refuseIfSpent(tag);
          const answer = await send(sending, (slot) => c.set("slot", slot));
          // ratings/overall (beyond the spec, priced as a rating) is not read by the client: its envelope decides.
          const { keep, records } = keepable(
            answer,
            request.path === request.key.path ? request.key : undefined,
          );
          if (answer.status === 200) {
            const units = request.units(records);
            await (await o.accounts.get(tag)).ledger.record(request.key, units);
            c.set("units", units);
          }
          if (keep) await o.store.set(key, answer);
          return { answer, fetchedHere: true };
        }),
      );
      c.set("cache", joined ? "hit" : "miss");
      try {
        const { answer, fetchedHere } = await flight;
        if (!fetchedHere) c.set("cache", "hit");
        if (!o.team && acceptsKey(answer)) c.set("trustedKey", apiKey);
        return relay(answer);
      } catch (e) {
        if (e instanceof GatewayError && e.status === 429) c.set("cache", "bypass"); // the quota is spent
        throw e;
      }
    } finally {
      // The body counts as in flight until it is written out to the client (or the client is gone).
      const outgoing = c.env?.outgoing;
      if (outgoing && !outgoing.writableFinished && !outgoing.destroyed)
        outgoing.once("close", () => ticket.release());
      else ticket.release();
    }
  });
  return app;
}
