// The built add-in (dist/ of `npm run build`) on the gateway's origin: static files, and the manifest with
// the build's origin (https://localhost:3000 unless FDQ_ADDIN_URL said otherwise) moved to the public URL.
// functions.json and the manifest may be fetched by Office from another origin: they carry
// Access-Control-Allow-Origin: *. Without a build every page answers 503 saying to run `npm run build`.
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type MiddlewareHandler } from "hono";
import type { GatewayEnv } from "./env";
import { GATEWAY_SUFFIX, GatewayError } from "./errors";

export interface AddinOptions {
  /** The build's directory (dist/ at the repository's root). */
  distDir: string;
  /** The URL clients reach the gateway at, without a trailing slash. */
  publicUrl: string;
}

export const NOT_BUILT = "The add-in is not built: run `npm run build`, then restart `fdq serve`";

/** Whether `dir` holds a build of the add-in. */
export const isBuilt = (dir: string): boolean => existsSync(path.join(dir, "manifest.xml"));

/** The origin the build's manifest names (its SourceLocation), or the dev server's. */
export function builtOrigin(xml: string): string {
  const source = /<SourceLocation\s+DefaultValue="(https?:\/\/[^/"]+)/.exec(xml)?.[1];
  return source ?? "https://localhost:3000";
}

/** The manifest with every URL of the build's origin moved under `publicUrl` (AppDomain: its origin). */
export function rewriteManifest(xml: string, publicUrl: string): string {
  const from = builtOrigin(xml);
  return xml.replaceAll(`${from}/`, `${publicUrl}/`).replaceAll(from, new URL(publicUrl).origin);
}

const anyOrigin = { "Access-Control-Allow-Origin": "*" };

export function addinRoutes(o: AddinOptions): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const requireBuild: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    c.set("cache", "bypass");
    if (!isBuilt(o.distDir)) throw new GatewayError(503, `${NOT_BUILT}${GATEWAY_SUFFIX}.`);
    await next();
  };
  app.use("*", requireBuild);
  app.get("/manifest.xml", async (c) => {
    const xml = await fs.readFile(path.join(o.distDir, "manifest.xml"), "utf8");
    return c.body(rewriteManifest(xml, o.publicUrl), 200, {
      ...anyOrigin,
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "no-cache",
    });
  });
  // Made on the first request that finds a build, not here: serveStatic logs a console.error of its own for a
  // missing root, and the gateway already says once, at start-up and on every page, that there is no build.
  let files: MiddlewareHandler | undefined;
  app.get("*", (c, next) => {
    files ??= serveStatic({
      root: o.distDir,
      index: "taskpane.html",
      onFound: (file, c) => {
        if (path.basename(file) === "functions.json") c.header("Access-Control-Allow-Origin", "*");
      },
    });
    return files(c, next);
  });
  return app;
}
