// A pass-through HTTP proxy on 127.0.0.1 in front of a sandbox, whose test decides when the service's answers
// arrive: while held, every GET waits at the proxy until the test releases it. Browser tests that read the pane
// while requests are in flight (progress, Cancel) hold the answers for exactly as long as they look, instead of
// a sandbox with a fixed latency that makes every request, the workbook's first calculation included, seconds long.
// Preflights (OPTIONS) and everything else pass at once; bodies and headers are forwarded unchanged.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface HeldService {
  /** The proxy's base URL (…/v1), to save in the pane in place of the sandbox's. */
  readonly baseUrl: string;
  /** The sandbox's key, unchanged. */
  readonly demoKey: string;
  /** GETs received from the page so far (held or not). */
  received(): number;
  /** GETs waiting at the proxy now. */
  held(): number;
  /** From now on, GETs wait until released. */
  hold(): void;
  /** Lets the GETs held now go on; later ones are held still (while holding). */
  releaseHeld(): void;
  /** Stops holding: the held GETs and every later one go on at once. */
  open(): void;
  /** Resolves once `count` GETs are held at once (throws after `timeoutMs`). */
  waitHeld(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the proxy in front of `upstream` (a running sandbox: baseUrl like http://127.0.0.1:PORT/v1). */
export async function holdAnswers(upstream: { baseUrl: string; demoKey: string }): Promise<HeldService> {
  const target = new URL(upstream.baseUrl);
  let holding = false;
  let received = 0;
  let waiting: (() => void)[] = [];

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const out = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  };

  const server = createServer((req, res) => {
    if (req.method !== "GET") return forward(req, res);
    received += 1;
    if (!holding) return forward(req, res);
    waiting.push(() => forward(req, res));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;

  const releaseHeld = (): void => {
    const go = waiting;
    waiting = [];
    for (const next of go) next();
  };
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, "")}`,
    demoKey: upstream.demoKey,
    received: () => received,
    held: () => waiting.length,
    hold: () => {
      holding = true;
    },
    releaseHeld,
    open: () => {
      holding = false;
      releaseHeld();
    },
    async waitHeld(count, timeoutMs = 20_000) {
      for (const started = Date.now(); waiting.length < count; await sleep(20)) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`${waiting.length} requests held after ${timeoutMs} ms, not ${count}`);
      }
    },
    close: async () => {
      holding = false;
      releaseHeld();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
