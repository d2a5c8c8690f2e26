// `fdq serve`: runs the FDQ gateway (src/gateway) until SIGTERM or SIGINT, then lets the requests in flight
// finish, refuses new ones and exits with status 0.
import { InvalidArgumentError } from "../api/errors";
import { startGateway } from "../gateway";
import { UsageError, type ServeOptions } from "./options";

export async function runServe(o: ServeOptions): Promise<number> {
  let gateway;
  try {
    gateway = await startGateway({
      upstream: o.upstream,
      port: o.port,
      host: o.host,
      publicUrl: o.publicUrl,
      store: o.store,
    });
  } catch (e) {
    if (e instanceof InvalidArgumentError) throw new UsageError(`--upstream: ${e.message}`);
    throw e;
  }
  const running = gateway;
  process.stderr.write(
    `fdq serve: listening on ${running.url}` +
      (running.publicUrl !== running.url ? ` (public URL ${running.publicUrl})` : "") +
      `\n  add-in manifest: ${running.publicUrl}/manifest.xml\n  FDQ service: ${running.publicUrl}/v1 -> ${o.upstream}\n  store: ${o.store}\n`,
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
