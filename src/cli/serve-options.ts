// `fdq serve`'s options: how the gateway is started (its upstream, address, store, team tokens, Redis and TLS),
// a concern of its own beside the options of the commands that evaluate formulas (./options.ts).
import path from "node:path";
import { defaultCacheDir, type Env } from "./options";
import { parse, UsageError } from "./parse-args";

export interface ServeOptions {
  /** The FDQ base URL including /v1 (https, or http for localhost only). */
  upstream: string;
  port: number;
  host: string;
  publicUrl: string | undefined;
  /** Where the day's answers and the ledgers persist (--store; default CACHE_DIR/gateway). */
  store: string;
  /** Team mode: the tokens file (--tokens or FDQ_GATEWAY_TOKENS); undefined: pass-through keys. */
  tokensFile: string | undefined;
  /** Team mode: FDQ_UPSTREAM_API_KEY of the gateway's environment. */
  upstreamApiKey: string | undefined;
  /** --redis redis://HOST:PORT: shared by every instance on it; undefined: this instance alone. */
  redis?: string | undefined;
  /** --cert and --key: PEM files for https (checked together when the gateway starts). */
  certFile?: string | undefined;
  keyFile?: string | undefined;
  /** --hash-token: print the tokens-file line of this token (under --name, default "analyst") and exit. */
  hashToken?: { token: string; name: string };
}

/**
 * The gateway relays /v1/PATH to UPSTREAM/PATH, so an upstream without its /v1 would send every request to a
 * path the service does not have: refused here with the URL to give instead.
 */
function upstreamEndsInV1(upstream: string): void {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    return; // not a URL at all: the gateway's own check says so
  }
  const pathname = url.pathname.replace(/\/+$/, "");
  if (pathname.endsWith("/v1")) return;
  const fixed = `${url.origin}${pathname}/v1`;
  throw new UsageError(
    `--upstream must be the FDQ base URL including /v1: give --upstream ${fixed} (not ${upstream}).`,
  );
}

/** `fdq serve`: the FDQ gateway of a team (src/gateway). */
export function parseServeArgs(args: string[], env: Env = process.env): ServeOptions {
  const { values, positionals } = parse("serve", args, {
    upstream: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    "public-url": { type: "string" },
    store: { type: "string" },
    tokens: { type: "string" },
    redis: { type: "string" },
    cert: { type: "string" },
    key: { type: "string" },
    "hash-token": { type: "string" },
    name: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  });
  if (positionals.length > 0) {
    throw new UsageError(`fdq serve takes no arguments (got "${positionals.join(" ")}").`);
  }
  const store = values.store ?? path.join((env.FDQ_CACHE_DIR ?? "") || defaultCacheDir(env), "gateway");
  if (values["hash-token"] !== undefined) {
    const token = values["hash-token"];
    if (token.trim() === "") throw new UsageError("--hash-token needs the token to hash.");
    const name = values.name?.trim() || "analyst";
    const hashToken = { token, name };
    return {
      upstream: "",
      port: 0,
      host: "",
      publicUrl: undefined,
      store,
      tokensFile: undefined,
      upstreamApiKey: undefined,
      hashToken,
    };
  }
  if (values.name !== undefined) throw new UsageError("--name goes with --hash-token only.");
  const tokensFile = (values.tokens ?? env.FDQ_GATEWAY_TOKENS ?? "").trim() || undefined;
  const upstreamApiKey = tokensFile === undefined ? undefined : env.FDQ_UPSTREAM_API_KEY?.trim() || undefined;
  if (tokensFile !== undefined && upstreamApiKey === undefined) {
    throw new UsageError(
      "team mode (--tokens or FDQ_GATEWAY_TOKENS) needs the FDQ API key of the team in FDQ_UPSTREAM_API_KEY " +
        "in the gateway's environment; it is not set.",
    );
  }
  const upstream = values.upstream?.trim();
  if (!upstream) {
    throw new UsageError("--upstream is required: the FDQ base URL including /v1, e.g. https://HOST/v1");
  }
  upstreamEndsInV1(upstream);
  let port = 8080;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\s*\d+\s*$/.test(values.port) || port > 65535) {
      throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
    }
  }
  const publicUrl = values["public-url"]?.trim();
  if (publicUrl !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(publicUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
      throw new UsageError(`--public-url must be an http(s) URL, not "${publicUrl}".`);
    }
  }
  return {
    upstream,
    port,
    host: values.host?.trim() || "127.0.0.1",
    publicUrl: publicUrl || undefined,
    store,
    tokensFile,
    upstreamApiKey,
    redis: values.redis?.trim() || undefined,
    certFile: values.cert?.trim() || undefined,
    keyFile: values.key?.trim() || undefined,
  };
}
