// Requests that ask whether something answers, rather than for data: they send no key and no answer of theirs
// can reach a cell. They live here because the request module is where the add-in calls fetch (docs/architecture.md,
// "Who calls fetch").
// - probeReachable tells "blocked by CORS" from "unreachable" after a browser fetch failed with its one TypeError
//   for both: a no-cors request resolves (opaquely) whenever the server answers at all, whatever its CORS headers.
// - answersGatewayHealth tells the FDQ gateway (`fdq serve`, whose GET /healthz answers {"ok":true}) from any other
//   server at an origin.

/** True when something at `url` answers at all; false when nothing does. */
export async function probeReachable(
  url: string,
  fetchFn: typeof fetch = globalThis.fetch,
): Promise<boolean> {
  try {
    await fetchFn(url, { mode: "no-cors", cache: "no-store", credentials: "omit" });
    return true;
  } catch {
    return false;
  }
}

export interface HealthProbe {
  /** Default: the platform's fetch. */
  readonly fetch?: typeof fetch;
  readonly timeoutMs: number;
}

/** True when `origin`'s GET /healthz answers 200 with {"ok":true} within the timeout; false for anything else. */
export async function answersGatewayHealth(origin: string, probe: HealthProbe): Promise<boolean> {
  const fetchFn = probe.fetch ?? globalThis.fetch;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), probe.timeoutMs);
  try {
    const res = await fetchFn(`${origin}/healthz`, {
      signal: controller.signal,
      cache: "no-store",
      credentials: "omit",
    });
    if (!res.ok) return false;
    const body = (await res.json()) as unknown;
    return typeof body === "object" && body !== null && (body as { ok?: unknown }).ok === true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
