// /v1/datapoint and /v1/datapoint/:name: metadata of every datapoint name the sandbox serves (the
// catalog's and those past the cut of the cut-off catalogs).
import { Hono } from "hono";
import { servedMetadata } from "../beyond-cutoff";
import { specError } from "../errors";
import { envelope, type SandboxContext } from "./shared";

export function datapointRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  app.get("/datapoint", (c) => envelope(c, ctx, [...servedMetadata().values()]));
  app.get("/datapoint/:name", (c) => {
    const meta = servedMetadata().get(c.req.param("name"));
    if (!meta) throw specError("DataPointNotFound");
    return envelope(c, ctx, meta);
  });
  return app;
}
