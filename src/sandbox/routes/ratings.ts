// /v1/ratings/component/:ticker: ratings of a stock, ETF or mutual fund; /v1/ratings/overall/:ticker, which
// production serves beyond the spec (production-service.md, fact 16): the same rating_overall, with ticker and name.
import { Hono } from "hono";
import type { RatedType } from "../../catalog";
import { specError } from "../errors";
import { isRated, rating, ratingsRecord } from "../ratings";
import type { Security } from "../universe";
import { envelope, type SandboxContext } from "./shared";

export function ratingsRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  const rated = (ticker: string): Security & { type: RatedType } => {
    const s = ctx.universe.resolve(ticker);
    if (!s || !isRated(s)) throw specError("RatingNotFound");
    return s;
  };
  app.get("/ratings/component/:ticker", (c) =>
    envelope(c, ctx, ratingsRecord(ctx.seed, rated(c.req.param("ticker")))),
  );
  app.get("/ratings/overall/:ticker", (c) => {
    const s = rated(c.req.param("ticker"));
    return envelope(c, ctx, {
      rating_overall: rating(ctx.seed, s.ticker, "rating_overall"),
      ticker: s.ticker,
      name: s.name,
    });
  });
  return app;
}
