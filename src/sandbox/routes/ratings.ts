// /v1/ratings/component/:ticker: ratings of a stock, ETF or mutual fund.
import { Hono } from "hono";
import { specError } from "../errors";
import { isRated, ratingsRecord } from "../ratings";
import { envelope, type SandboxContext } from "./shared";

export function ratingsRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  app.get("/ratings/component/:ticker", (c) => {
    const s = ctx.universe.resolve(c.req.param("ticker"));
    if (!s || !isRated(s)) throw specError("RatingNotFound");
    return envelope(c, ctx, ratingsRecord(ctx.seed, s));
  });
  return app;
}
