// The hono environment of the gateway's routes: what a handler tells the access log.
import type { HttpBindings } from "@hono/node-server";

export type CacheOutcome = "hit" | "miss" | "bypass";

export interface GatewayEnv {
  Bindings: HttpBindings;
  Variables: {
    /** Whether the answer came from the day's store (hit), went upstream for it (miss), or neither. */
    cache: CacheOutcome;
    /** Quota units the answer cost the account (0 from the store). */
    units: number;
    /** The key the upstream request carries: the client's own (pass-through) or the gateway's (team). */
    upstreamKey: string;
    /** Team mode: the analyst (the token's name in the tokens file) the access log names. */
    analyst: string | undefined;
  };
}
