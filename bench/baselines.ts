// The alternatives the product is measured against: deliberately simple fetch loops, not the product
// client. Each reads and decodes the whole answer, as a client that uses the value must.
import { runPool } from "./pool";
import { requestHeaders } from "./wire";

export interface FetchRun {
  readonly requests: number;
  readonly failures: number;
  readonly seconds: number;
}

async function getJson(url: string, headers: Record<string, string>): Promise<boolean> {
  try {
    const response = await fetch(url, { headers });
    const envelope: unknown = await response.json();
    if (!response.ok) return false;
    // wire-notes.md item 2: the envelope's body arrives as a JSON-encoded string.
    const body = (envelope as { body?: unknown }).body;
    if (typeof body === "string") JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/** Sends every URL, `concurrency` at a time (1 = the vendor samples' sequential loop). */
export async function fetchAll(
  urls: readonly string[],
  concurrency: number,
  apiKey: string,
): Promise<FetchRun> {
  const headers = requestHeaders(apiKey);
  let failures = 0;
  const start = performance.now();
  await runPool(urls, concurrency, async (url) => {
    if (!(await getJson(url, headers))) failures++;
  });
  return { requests: urls.length, failures, seconds: (performance.now() - start) / 1000 };
}
