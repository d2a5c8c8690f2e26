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
  };
}
