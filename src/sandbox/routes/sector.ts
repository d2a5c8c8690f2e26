// /v1/sector/:ticker: one aggregated datapoint of a sector or industry.
import { Hono } from "hono";
import { findSectorDatapoint } from "../../catalog";
import { badRequest, specError } from "../errors";
import { parsePriorYear } from "../params";
import { SectorModel } from "../sectors";
import { dayNumber } from "../periods";
import { restatedBefore } from "../restate";
import { formatDecimal } from "../values";
import { envelope, type SandboxContext } from "./shared";

/** Aggregates over hundreds of members are worth keeping for a while; the bounds keep memory flat. */
const CACHE_LIMIT = 5000;
const MEMBER_CACHE_LIMIT = 100_000;

export function sectorRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  const cache = new Map<string, number | string>();
  const memo = new Map<string, number>();
  app.get("/sector/:ticker", (c) => {
    const priorYear = parsePriorYear((name) => c.req.query(name));
    const group = ctx.universe.resolve(c.req.param("ticker"));
    if (!group || (group.type !== "sector" && group.type !== "industry")) throw specError("DataNotFound");
    const name = c.req.query("datapoint");
    if (name === undefined) throw badRequest("Missing required query parameter: datapoint.");
    const dp = findSectorDatapoint(name);
    if (!dp) throw specError("DataPointNotFound");
    // Group "none" answers only without prior_year; "current" without it or with 0; "all" 0..5.
    if (priorYear !== undefined && !dp.priorYears.includes(priorYear))
      throw specError("SectorDataPointNotFound");
    const now = ctx.now();
    const key = `${group.ticker}|${dp.name}|${priorYear ?? 0}|${dayNumber(now)}`;
    let value = cache.get(key);
    if (value === undefined) {
      if (memo.size >= MEMBER_CACHE_LIMIT) memo.clear();
      const restated = restatedBefore(ctx.restatement, dayNumber(now));
      value = new SectorModel({ universe: ctx.universe, seed: ctx.seed, now, memo, restated }).value(
        group,
        dp,
        priorYear ?? 0,
      );
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(key, value);
    }
    return envelope(c, ctx, {
      ticker: group.ticker,
      name: group.name,
      prior_year: priorYear ?? 0,
      datapoint: dp.name,
      datavalue: typeof value === "string" ? value : formatDecimal(value),
    });
  });
  return app;
}
