// /v1/coverage/:security_type and /v1/coverage/:security_type/:ticker.
import { Hono } from "hono";
import { SECURITY_TYPES, type SecurityType } from "../../catalog";
import { specError } from "../errors";
import { lastTradingDay } from "../periods";
import type { Security } from "../universe";
import { envelope, type SandboxContext } from "./shared";

function securityType(raw: string): SecurityType {
  const type = SECURITY_TYPES.find((t) => t === raw);
  if (!type) throw specError("InvalidSecurityType");
  return type;
}

function listItem(s: Security, today: string) {
  return {
    ticker: s.ticker,
    name: s.name,
    type: s.type,
    sector: s.sector.id,
    last_trade_date: s.lastTradeDate ?? today,
  };
}

/** "NA" when the security has none, or null for the records that serve null (production-service.md, fact 3). */
const none = (s: Security): string | null => (s.noneAsNull ? null : "NA");

function singleRecord(s: Security, today: string) {
  return {
    ...listItem(s, today),
    sector_name: s.sector.name,
    subsector: s.subsector?.id ?? none(s),
    subsector_name: s.subsector?.name ?? none(s),
    industry: s.industry?.id ?? "NA",
    industry_name: s.industry?.name ?? "NA",
    subindustry: s.subindustry?.id ?? none(s),
    subindustry_name: s.subindustry?.name ?? none(s),
  };
}

export function coverageRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  app.get("/coverage/:type", (c) => {
    const type = securityType(c.req.param("type"));
    const today = lastTradingDay(ctx.now());
    return envelope(
      c,
      ctx,
      ctx.universe.list(type).map((s) => listItem(s, today)),
    );
  });
  app.get("/coverage/:type/:ticker", (c) => {
    const type = securityType(c.req.param("type"));
    const s = ctx.universe.resolve(c.req.param("ticker"));
    if (!s || s.type !== type) throw specError("DataNotFound");
    return envelope(c, ctx, [singleRecord(s, lastTradingDay(ctx.now()))]);
  });
  return app;
}
