// /v1/datapoint and /v1/datapoint/:name: metadata of every datapoint name the sandbox serves (the
// catalog's and those past the cut of the cut-off catalogs). Records carry the spec's `name` and, as
// production does, the same value as `api_data_key_name` (production-service.md, facts 5, 15); `endpoints` holds dataset paths
// or, with --endpoint-names groups, production's group names (endpoint-groups.ts).
import { Hono } from "hono";
import { servedMetadata } from "../beyond-cutoff";
import { groupNames } from "../endpoint-groups";
import { specError } from "../errors";
import { envelope, type SandboxContext } from "./shared";

export interface MetadataRecord {
  readonly name: string;
  readonly api_data_key_name: string;
  readonly description: string;
  readonly endpoints: string;
}

function records(ctx: SandboxContext): ReadonlyMap<string, MetadataRecord> {
  const groups = ctx.endpointNames === "groups";
  return new Map(
    [...servedMetadata().values()].map((m) => [
      m.name,
      {
        name: m.name,
        api_data_key_name: m.name,
        description: m.description,
        endpoints: groups ? groupNames(m.endpoints) : m.endpoints,
      },
    ]),
  );
}

export function datapointRoutes(ctx: SandboxContext): Hono {
  const app = new Hono({ strict: false });
  let byName: ReadonlyMap<string, MetadataRecord> | undefined;
  const all = (): ReadonlyMap<string, MetadataRecord> => (byName ??= records(ctx));
  app.get("/datapoint", (c) => envelope(c, ctx, [...all().values()]));
  app.get("/datapoint/:name", (c) => {
    const meta = all().get(c.req.param("name"));
    if (!meta) throw specError("DataPointNotFound");
    return envelope(c, ctx, meta);
  });
  return app;
}
