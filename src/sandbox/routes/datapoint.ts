// /v1/datapoint and /v1/datapoint/:name: metadata of every datapoint name of the catalog.
import { Hono } from "hono";
import { datapointMetadata } from "../../catalog";
import { specError } from "../errors";
import { envelope, type SandboxContext } from "./shared";

export function datapointRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  app.get("/datapoint", (c) => envelope(c, ctx, [...datapointMetadata().values()]));
  app.get("/datapoint/:name", (c) => {
    const meta = datapointMetadata().get(c.req.param("name"));
    if (!meta) throw specError("DataPointNotFound");
    return envelope(c, ctx, meta);
  });
  return app;
}
