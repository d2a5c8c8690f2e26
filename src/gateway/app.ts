// The gateway's HTTP surface: the security headers and the access log on every answer, /healthz (with the
// upstream slots' figures), /usage (and POST /usage/reset), /v1/* (the FDQ service, pass-through keys or
// team mode's gateway tokens, one refresh day's answers per account) and the built add-in at /, with the
// one error handler that writes every answer the gateway makes itself as {"message": ...}.
import { Hono } from "hono";
import { accountTag } from "../api";
import type { Accounts } from "./accounts";
import { accessLog } from "./access-log";
import { addinRoutes, type AddinOptions } from "./addin";
import type { GatewayEnv } from "./env";
import { GatewayError } from "./errors";
import type { FairSlots } from "./fair-slots";
import { authenticate, onlyReads, proxyRoutes, type ProxyOptions } from "./proxy";
import { securityHeaders } from "./security-headers";

export interface GatewayAppOptions extends ProxyOptions, AddinOptions {
  accounts: Accounts;
  /** The gateway's upstream slots, whose figures /healthz shows. */
  slots: FairSlots;
  /** Whether the gateway speaks https (HSTS). */
  https: boolean;
  log: (line: string) => void;
  onWarning: (message: string) => void;
}

export function createGatewayApp(o: GatewayAppOptions): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>({ strict: false });
  app.use(securityHeaders({ https: o.https }));
  app.use(accessLog(o.log, o.team?.upstreamApiKey));
  // For the load balancer and the operator: the upstream slots now (figures only; no account is named).
  app.get("/healthz", (c) => c.json({ ok: true, upstream: o.slots.figures() }));
  // The account's units this month as the gateway counted them (the account of the client's key; in team
  // mode the team's account, to any valid gateway token). Creates no account.
  app.use("/usage", onlyReads, authenticate(o));
  app.get("/usage", async (c) => c.json(await o.accounts.report(accountTag(c.get("upstreamKey")))));
  // `fdq usage --reset`: lifts the account's "Limit Exceeded" stop before the month turns (the plan was
  // raised). Pass-through: the key's own account; team mode: the team's, by any analyst (logged by name).
  app.post("/usage/reset", authenticate(o), async (c) => {
    const tag = accountTag(c.get("upstreamKey"));
    await o.accounts.reset(tag);
    return c.json(await o.accounts.report(tag));
  });
  app.route("/v1", proxyRoutes(o));
  app.route("/", addinRoutes(o));
  app.notFound((c) => c.json({ message: "Not Found" }, 404));
  app.onError((err, c) => {
    if (err instanceof GatewayError) return c.json({ message: err.message }, err.status, err.headers);
    o.onWarning(`fdq serve: unexpected error (${err.name})`);
    return c.json({ message: "Internal Server Error (from the FDQ gateway)" }, 500);
  });
  return app;
}
