// The gateway as a process of its own, for figures of its own memory (test/support/max-rss.js writes its
// peak RSS on exit): options as JSON in argv[2]; prints its URL on stdout; stops on SIGTERM.
import { startGateway, type GatewayOptions } from "../../../src/gateway";

void (async () => {
  const options = JSON.parse(process.argv[2] ?? "{}") as GatewayOptions;
  const gateway = await startGateway({ ...options, log: () => undefined, onWarning: () => undefined });
  process.stdout.write(`${gateway.url}\n`);
  process.once("SIGTERM", () => {
    void gateway.close().then(() => process.exit(0));
  });
})();
