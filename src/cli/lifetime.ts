// How long an `fdq` process lives: until its work is done, SIGTERM or SIGINT, or, when npm started it, until the
// npm process that started it is gone.
//
// Why the last rule: `npx fdq …`, `npm exec fdq …` and `npm run SCRIPT` run fdq through `sh -c` (npm 11's
// @npmcli/run-script). On SIGTERM or SIGINT npm passes the signal to that shell only, and waits for it. Debian's
// /bin/sh (dash) dies of SIGTERM without passing it on to its child, so npm exits and fdq, re-parented to init,
// would go on serving its port with nobody left to stop it. A process cannot receive a signal sent to another, so
// fdq watches its parent instead: once it is re-parented (its parent process id changed), it sends itself
// SIGTERM, the same clean stop as `kill -TERM` of fdq itself (`fdq serve` finishes the requests in flight and
// exits 0). fdq is one process (bin/fdq.js registers tsx in-process, no launcher in between) and starts no child
// process of its own to forward signals to (tsx's esbuild service ends with it).
//
// Only under npm: a user who starts `node bin/fdq.js serve` with nohup or from a script that then exits means it
// to outlive its parent.

export interface ParentWatchOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How often the parent is checked; 250 ms keeps the port's release prompt at no measurable cost. */
  readonly intervalMs?: number;
  /** The current parent process id (process.ppid reads it afresh each time). */
  readonly parentId?: () => number;
  /** What to do once the parent is gone (default: SIGTERM to this process). */
  readonly onParentGone?: () => void;
}

/** Whether npm (npx, npm exec, npm run; also pnpm and yarn scripts) started this process. */
export function startedByNpm(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env.npm_lifecycle_event !== undefined && env.npm_lifecycle_event !== "";
}

function stopSelf(): void {
  // The reader of our output may have gone with the parent: a write to a closed pipe must not crash the stop.
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  process.kill(process.pid, "SIGTERM");
}

/**
 * When npm started this process, stops it (SIGTERM to itself) once its parent is gone. Returns a function that
 * ends the watch; the watch itself never keeps the process alive.
 */
export function stopWithParent(options: ParentWatchOptions = {}): () => void {
  if (!startedByNpm(options.env ?? process.env)) return () => undefined;
  const parentId = options.parentId ?? (() => process.ppid);
  const first = parentId();
  // Started by init or a subreaper (1): there is no re-parenting to see.
  if (first <= 1) return () => undefined;
  const onParentGone = options.onParentGone ?? stopSelf;
  const timer = setInterval(() => {
    if (parentId() === first) return;
    clearInterval(timer);
    onParentGone();
  }, options.intervalMs ?? 250);
  timer.unref();
  return () => clearInterval(timer);
}
