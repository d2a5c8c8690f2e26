// The measured figures of the gateway's hostile suites (time to answer, memory, statuses, waits): each test
// notes what it measured, and with FDQ_TEST_FIGURES=1 the suite prints them in one block when it ends, so a run
// shows the figures the assertions were checked against (bounds are generous for a loaded 2-core machine). A
// plain run prints nothing: a green run is quiet.
import http from "node:http";

const noted: string[] = [];

export function figure(name: string, value: string | number): void {
  noted.push(`  ${name}: ${value}`);
}

/** Whether the tests print what they measured (FDQ_TEST_FIGURES=1). */
export const SHOW_FIGURES = process.env.FDQ_TEST_FIGURES === "1";

/** With FDQ_TEST_FIGURES=1, prints the figures noted by the suite (one block, straight to stdout: no console frames). */
export function printFigures(suite: string): void {
  if (!SHOW_FIGURES || noted.length === 0) {
    noted.length = 0;
    return;
  }
  process.stdout.write(`${suite} figures:\n${noted.join("\n")}\n`);
  noted.length = 0;
}

export const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/**
 * A GET with node:http (any header size Node's client sends, no fetch limits): status, body, headers and
 * the milliseconds from sending to the end of the answer.
 */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers, ms: performance.now() - start }),
      );
    });
    req.on("error", reject);
  });
}
