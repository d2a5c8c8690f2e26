// The built add-in (dist/ of `npm run build`) on the gateway's origin: static files, and both manifests with
// the build's origin (https://localhost:3000 unless FDQ_ADDIN_URL said otherwise) moved to the public URL: the add-in
// only manifest (/manifest.xml), the unified manifest (/manifest.json) and the app package the Microsoft 365 admin
// center takes (/fdq-for-excel.zip: that manifest.json and its two icons). functions.json and the manifests may be
// fetched by Office from another origin: they carry Access-Control-Allow-Origin: *. Without a build every page
// answers 503 saying to run `npm run build`.
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono, type MiddlewareHandler } from "hono";
import { APP_PACKAGE_FILE, APP_PACKAGE_ICONS, appPackage } from "../manifest";
import type { GatewayEnv } from "./env";
import { GATEWAY_SUFFIX, GatewayError } from "./errors";

export interface AddinOptions {
  /** The build's directory (dist/ at the repository's root). */
  distDir: string;
  /** The URL clients reach the gateway at, without a trailing slash. */
  publicUrl: string;
}

export const NOT_BUILT = "The add-in is not built: run `npm run build`, then restart `fdq serve`";
/** A build made before the unified manifest: it lacks `file`. */
export const oldBuild = (file: string): string =>
  `The add-in's build has no ${file}, which the unified manifest needs: run \`npm run build\` again, then restart \`fdq serve\``;

/** Whether `dir` holds a build of the add-in. */
export const isBuilt = (dir: string): boolean => existsSync(path.join(dir, "manifest.xml"));

/** The origin a build's manifest names (XML: its SourceLocation; unified: its runtime's page), or the dev server's. */
export function builtOrigin(manifest: string): string {
  const source =
    /<SourceLocation\s+DefaultValue="(https?:\/\/[^/"]+)/.exec(manifest)?.[1] ??
    /"page":\s*"(https?:\/\/[^/"]+)/.exec(manifest)?.[1];
  return source ?? "https://localhost:3000";
}

/**
 * A manifest (either kind) with every URL of the build's origin moved under `publicUrl` (AppDomain and
 * validDomains: its origin).
 */
export function rewriteManifest(manifest: string, publicUrl: string): string {
  const from = builtOrigin(manifest);
  return manifest.replaceAll(`${from}/`, `${publicUrl}/`).replaceAll(from, new URL(publicUrl).origin);
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
  /** A file of the build that the unified manifest needs; a build made without it is an old one. */
  const builtFile = async (file: string): Promise<Buffer> => {
    try {
      return await fs.readFile(path.join(o.distDir, file));
    } catch {
      throw new GatewayError(503, `${oldBuild(file)}${GATEWAY_SUFFIX}.`);
    }
  };
  const unified = async (): Promise<string> =>
    rewriteManifest((await builtFile("manifest.json")).toString("utf8"), o.publicUrl);
  app.get("/manifest.json", async (c) =>
    c.body(await unified(), 200, {
      ...anyOrigin,
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-cache",
    }),
  );
  app.get(`/${APP_PACKAGE_FILE}`, async (c) => {
    const icons = new Map<string, Uint8Array>();
    for (const file of APP_PACKAGE_ICONS) icons.set(file, await builtFile(file));
    const zip = appPackage(await unified(), (file) => {
      const bytes = icons.get(file);
      if (!bytes) throw new Error(`the app package has no icon ${file}`);
      return bytes;
    });
    return c.body(new Uint8Array(zip), 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${APP_PACKAGE_FILE}"`,
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
