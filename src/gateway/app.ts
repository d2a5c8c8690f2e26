// The gateway's HTTP surface: the access log, /healthz, /usage, /v1/* (the FDQ service, pass-through keys
// or team mode's gateway tokens, one refresh day's answers per account) and the built add-in at /, with the one error handler that writes
// every answer the gateway makes itself as {"message": ...}.
import { Hono } from "hono";
import { accountTag } from "../api/account-tag";
import type { Accounts } from "./accounts";
import { accessLog } from "./access-log";
import { addinRoutes, type AddinOptions } from "./addin";
import type { GatewayEnv } from "./env";
import { GatewayError } from "./errors";
import { authenticate, onlyReads, proxyRoutes, type ProxyOptions } from "./proxy";

export interface GatewayAppOptions extends ProxyOptions, AddinOptions {
  accounts: Accounts;
  log: (line: string) => void;
  onWarning: (message: string) => void;
}

export function createGatewayApp(o: GatewayAppOptions): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>({ strict: false });
  app.use(accessLog(o.log, o.team?.upstreamApiKey));
  app.get("/healthz", (c) => c.json({ ok: true }));
  // The account's units this month as the gateway counted them (the account of the client's key; in team
  // mode the team's account, to any valid gateway token).
  app.use("/usage", onlyReads, authenticate(o));
  app.get("/usage", async (c) => {
    const account = await o.accounts.get(accountTag(c.get("upstreamKey")));
    return c.json(await account.ledger.report());
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
