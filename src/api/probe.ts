// Tells "blocked by CORS" from "unreachable" after a browser fetch failed with its one TypeError for both:
// a no-cors request resolves (opaquely) whenever the server answers at all, whatever its CORS headers.
// It sends no key and reads nothing, so no answer can reach a cell.

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
