// The hono environment of the gateway's routes: what a handler tells the access log and the routes after it.
import type { HttpBindings } from "@hono/node-server";
import type { SlotGrant } from "./fair-slots";

export type CacheOutcome = "hit" | "miss" | "bypass";

/** The upstream slot a request was sent in, as its access-log line shows it. */
export interface SlotUse extends SlotGrant {
  /** Milliseconds the request waited for the slot (across instances with Redis). */
  readonly waitMs: number;
}

export interface GatewayEnv {
  Bindings: HttpBindings;
  Variables: {
    /** Whether the answer came from the day's store (hit), went upstream for it (miss), or neither. */
    cache: CacheOutcome;
    /** The upstream slot the request was sent in; undefined when it went upstream through no slot of its own. */
    slot: SlotUse | undefined;
    /** Quota units the answer cost the account (0 from the store). */
    units: number;
    /** The key the upstream request carries: the client's own (pass-through) or the gateway's (team). */
    upstreamKey: string;
    /** Team mode: the analyst (the token's name in the tokens file) the access log names. */
    analyst: string | undefined;
    /** performance.now() when the request arrived: its one deadline runs from here. */
    arrived: number;
    /** The client's address (the socket's peer): refused keys are counted per address. */
    address: string;
    /** Whose share of the account's slots a request takes: the analyst (team mode) or the address. */
    party: string;
    /**
     * The client's key once it is known to be valid (a token of the file; a key the service accepted):
     * only then may the access log redact with it. Undefined: the log never runs a redactor keyed by it.
     */
    trustedKey: string | undefined;
  };
}
