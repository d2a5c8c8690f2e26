// `fdq serve`: runs the FDQ gateway (src/gateway) until SIGTERM or SIGINT (or, under npx or npm run, until the npm
// process that started it is gone: lifetime.ts), then lets the requests in flight
// finish, refuses new ones and exits with status 0. `--tokens FILE` (or FDQ_GATEWAY_TOKENS) is team mode
// with FDQ_UPSTREAM_API_KEY upstream; `--redis URL` shares the store with other instances; `--cert FILE
// --key FILE` serves https; `--hash-token TOKEN` prints the tokens-file line of a token.
import { InvalidArgumentError } from "../api";
import { GatewaySetupError, redisWhere, startGateway, tokenLine } from "../gateway";
import { APP_PACKAGE_FILE } from "../manifest";
import { CommandFailed } from "./exit-codes";
import { UsageError } from "./options";
import type { ServeOptions } from "./serve-options";

/** What the system said when the gateway could not listen, turned into what to do about it. */
function listenFailure(e: unknown, o: ServeOptions): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  const where = `${o.host.includes(":") ? `[${o.host}]` : o.host}:${o.port}`;
  if (code === "EADDRINUSE") {
    return new CommandFailed(
      `cannot listen on ${where}: another program uses port ${o.port}. Stop it, or choose another port ` +
        `with --port N (--port 0 picks a free one and prints it).`,
    );
  }
  if (code === "EACCES") {
    return new CommandFailed(
      `cannot listen on ${where}: this user may not open port ${o.port} (ports below 1024 need privileges). ` +
        `Choose a port from 1024 with --port N, or put a reverse proxy in front.`,
    );
  }
  if (code === "EADDRNOTAVAIL") {
    return new CommandFailed(
      `cannot listen on ${where}: ${o.host} is not an address of this machine. Check --host (default 127.0.0.1; ` +
        `0.0.0.0 for every address).`,
    );
  }
  return e;
}

export async function runServe(o: ServeOptions): Promise<number> {
  if (o.hashToken) {
    try {
      process.stdout.write(`${tokenLine(o.hashToken.name, o.hashToken.token)}\n`);
    } catch (e) {
      throw new UsageError(`--name: ${(e as Error).message}`);
    }
    return 0;
  }
  let gateway;
  try {
    gateway = await startGateway({
      upstream: o.upstream,
      port: o.port,
      host: o.host,
      publicUrl: o.publicUrl,
      store: o.store,
      tokensFile: o.tokensFile,
      upstreamApiKey: o.upstreamApiKey,
      redis: o.redis,
      certFile: o.certFile,
      keyFile: o.keyFile,
    });
  } catch (e) {
    if (e instanceof InvalidArgumentError) throw new UsageError(`--upstream: ${e.message}`);
    if (e instanceof GatewaySetupError) throw new UsageError(e.withOption);
    throw listenFailure(e, o);
  }
  const running = gateway;
  process.stderr.write(
    `fdq serve: listening on ${running.url}` +
      (running.publicUrl !== running.url ? ` (public URL ${running.publicUrl})` : "") +
      `\n  add-in only manifest: ${running.publicUrl}/manifest.xml (every Excel; Excel 2016 to 2021 need it)` +
      `\n  unified manifest: ${running.publicUrl}/manifest.json, app package ${running.publicUrl}/${APP_PACKAGE_FILE}` +
      ` (Microsoft 365 admin center, Teams)\n  FDQ service: ${running.publicUrl}/v1 -> ${o.upstream}\n  store: ${o.store}` +
      (o.redis === undefined
        ? " (this instance alone)\n"
        : ` shared through Redis (${redisWhere(o.redis)})\n`) +
      (o.tokensFile === undefined
        ? "  keys: pass-through (each client's own x-api-key)\n"
        : `  keys: team mode (gateway tokens of ${o.tokensFile}; FDQ_UPSTREAM_API_KEY upstream)\n`),
  );
  process.stdout.write(`${running.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      process.stderr.write("fdq serve: stopping (finishing the requests in flight)\n");
      running.close().then(resolve, (e: unknown) => {
        process.stderr.write(`fdq serve: ${(e as Error).message}\n`);
        resolve();
      });
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  return 0;
}
