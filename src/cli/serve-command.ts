// `fdq serve`: runs the FDQ gateway (src/gateway) until SIGTERM or SIGINT, then lets the requests in flight
// finish, refuses new ones and exits with status 0. `--tokens FILE` (or FDQ_GATEWAY_TOKENS) is team mode
// with FDQ_UPSTREAM_API_KEY upstream; `--redis URL` shares the store with other instances; `--cert FILE
// --key FILE` serves https; `--hash-token TOKEN` prints the tokens-file line of a token.
import { InvalidArgumentError } from "../api/errors";
import {
  RedisUrlError,
  redisWhere,
  startGateway,
  TeamModeError,
  TlsFilesError,
  tokenLine,
  TokensFileError,
} from "../gateway";
import { UsageError, type ServeOptions } from "./options";

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
    if (e instanceof TokensFileError) throw new UsageError(`--tokens: ${e.message}`);
    if (e instanceof TeamModeError) throw new UsageError(e.message);
    if (e instanceof RedisUrlError) throw new UsageError(`--redis: ${e.message}`);
    if (e instanceof TlsFilesError) throw new UsageError(e.message);
    throw e;
  }
  const running = gateway;
  process.stderr.write(
    `fdq serve: listening on ${running.url}` +
      (running.publicUrl !== running.url ? ` (public URL ${running.publicUrl})` : "") +
      `\n  add-in manifest: ${running.publicUrl}/manifest.xml\n  FDQ service: ${running.publicUrl}/v1 -> ${o.upstream}\n  store: ${o.store}` +
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
