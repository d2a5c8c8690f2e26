// The 16 data endpoints: /v1/<group>/<dataset>/:ticker in single-datapoint and all-datapoints modes, over
// the catalog's names and, for the cut-off catalogs, the names past the cut (beyond-cutoff.ts).
import { Hono } from "hono";
import { DATASETS, type Dataset } from "../../catalog";
import { hasData } from "../availability";
import { findServedDatapoint, servedDatapoints } from "../beyond-cutoff";
import { ApiError, badRequest, specError } from "../errors";
import { parsePeriod } from "../params";
import { dayNumber, PERIOD_TYPES, type Period } from "../periods";
import { restatedBefore } from "../restate";
import { Evaluator, formatDecimal } from "../values";
import { envelope, type SandboxContext } from "./shared";

/** 10-K for annual figures and ttm windows that end with Q4, 10-Q otherwise. */
const filingType = (p: Period): string => (p.kind === "annual" || p.n === 4 ? "10-K" : "10-Q");

function record(dataset: Dataset, ticker: string, p: Period, datapoint: string, value: number) {
  const type = PERIOD_TYPES[p.kind];
  return {
    ticker,
    year: p.year,
    period: p.n,
    periodtype: type,
    periodstring: type,
    datapoint,
    datavalue: formatDecimal(value),
    ...(dataset.hasFilingType ? { filingtype: filingType(p) } : {}),
  };
}

export function dataRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  for (const dataset of DATASETS) {
    app.get(`/${dataset.path}/:ticker`, (c) => {
      const period = parsePeriod((name) => c.req.query(name));
      const requested = c.req.query("datapoint");
      if (requested === undefined && !dataset.allDatapointsMode)
        throw badRequest("Missing required query parameter: datapoint.");
      const entry = requested === undefined ? undefined : findServedDatapoint(dataset, requested);
      if (requested !== undefined && !entry) throw specError("DataPointNotFound");
      const now = ctx.now();
      const security = ctx.universe.resolve(c.req.param("ticker"));
      if (!security || !hasData(security, period, now)) {
        if (ctx.noData === "empty") return envelope(c, ctx, [], 0);
        if (ctx.noData === "not-found") throw new ApiError(404, "Not Found");
        throw specError("DataNotFound");
      }
      const day = dayNumber(now);
      const ev = new Evaluator(
        ctx.seed,
        security.ticker,
        day,
        undefined,
        restatedBefore(ctx.restatement, day),
      );
      const entries = entry ? [entry] : servedDatapoints(dataset);
      const records = entries.map((e) =>
        record(dataset, security.ticker, period, e.name, ev.value(e.name, period)),
      );
      // Fundamentals answer a single datapoint with the record itself, the others with an array of one.
      // Quota: a single datapoint costs 1 unit, an all-datapoints answer 1 per record (production-service.md, fact 11).
      return envelope(
        c,
        ctx,
        entry && dataset.group === "fundamentals" ? records[0] : records,
        records.length,
      );
    });
  }
  return app;
}
