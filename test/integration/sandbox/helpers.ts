// Shared by the sandbox's integration tests: a started sandbox and small HTTP helpers (global fetch, and a
// raw socket for requests fetch refuses to send).
import http from "node:http";
import net from "node:net";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../../src/sandbox";

/** The tests' clock: fiscal 2025 has Q1 and Q2; the last annual year is 2024. */
export const TEST_NOW = new Date("2025-08-15T12:00:00Z");

export interface Reply {
  status: number;
  headers: Headers;
  /** The parsed JSON body (the envelope or an error object). */
  json: unknown;
}

export class Client {
  constructor(
    readonly sandbox: RunningSandbox,
    readonly key: string = sandbox.demoKey,
  ) {}

  async get(path: string, init: RequestInit = {}): Promise<Reply> {
    const headers = {
      "x-api-key": this.key,
      accept: "application/json",
      ...(init.headers as Record<string, string>),
    };
    const res = await fetch(`${this.sandbox.baseUrl}${path}`, { ...init, headers });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  }

  /** `results` of a 200 envelope whose body is a JSON string (fails the test otherwise). */
  async results<T = unknown>(path: string): Promise<T> {
    const reply = await this.get(path);
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.json)}`);
    const env = reply.json as { statusCode: number; headers: Record<string, string>; body: string };
    // Asserted only when it fails (the same assertion and report): an expect per answer cost the tests of
    // thousands of answers more CPU than the answers did.
    if (env.statusCode !== 200 || typeof env.body !== "string")
      expect([env.statusCode, typeof env.body]).toEqual([200, "string"]);
    return (JSON.parse(env.body) as { results: T }).results;
  }

  /** Status and message of an error answer. */
  async error(path: string, init?: RequestInit): Promise<[number, string]> {
    const reply = await this.get(path, init);
    return [reply.status, (reply.json as { message: string }).message];
  }
}

/**
 * Sends `text` as it is over a new connection and reads the answer until the server closes it; the body
 * is parsed as JSON (so a non-JSON body fails the test).
 */
export function rawRequest(port: number, text: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      try {
        const answer = Buffer.concat(chunks).toString("utf8");
        const split = answer.indexOf("\r\n\r\n");
        const [statusLine = "", ...lines] = answer.slice(0, split).split("\r\n");
        const headers = new Headers(
          lines.map((l): [string, string] => [
            l.slice(0, l.indexOf(":")),
            l.slice(l.indexOf(":") + 1).trim(),
          ]),
        );
        const json: unknown = JSON.parse(answer.slice(split + 4));
        resolve({ status: Number(statusLine.split(" ")[1]), headers, json });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}

export async function start(opts: SandboxOptions = {}): Promise<Client> {
  return new Client(await startSandbox({ now: () => TEST_NOW, ...opts }));
}

export interface DataRecord {
  ticker: string;
  year: number;
  period: number;
  periodtype: string;
  periodstring: string;
  datapoint: string;
  datavalue: string;
  filingtype?: string;
}

/** Datapoint -> numeric value of an all-datapoints answer. */
export const valuesOf = (records: readonly DataRecord[]): Map<string, number> =>
  new Map(records.map((r) => [r.datapoint, Number(r.datavalue)]));

/** |a - b| within 1e-6 of the larger magnitude (or absolute 1e-6 near zero). */
export function close(a: number, b: number, scale = Math.max(Math.abs(a), Math.abs(b), 1)): boolean {
  return Math.abs(a - b) <= 1e-6 * scale;
}

/** Runs tasks with at most `limit` in flight. */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Statuses of GETs over node:http with keep-alive (each body read and dropped), for the tests of many requests:
 * several times less CPU in the test process than fetch for the same requests to the sandbox.
 */
export function statusClient(
  sandbox: RunningSandbox,
  key: string = sandbox.demoKey,
  maxSockets = 50,
): { status(path: string): Promise<number>; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return {
    status: (path) =>
      new Promise((resolve, reject) => {
        http
          .get(`${sandbox.baseUrl}${path}`, { agent, headers: { "x-api-key": key } }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
            res.on("error", reject);
          })
          .on("error", reject);
      }),
    close: () => agent.destroy(),
  };
}
