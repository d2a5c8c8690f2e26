// Asks the sandbox directly (plain fetch, no request module) what the service answers, so the tests
// compare the functions' results with the service's own data instead of hard-coded numbers.
import type { RunningSandbox } from "../../../src/sandbox";

interface Envelope {
  body: string | { results: unknown };
}

export async function serviceResults(sandbox: RunningSandbox, rel: string): Promise<unknown> {
  const res = await fetch(`${sandbox.baseUrl}/${rel}`, { headers: { "x-api-key": sandbox.demoKey } });
  if (res.status !== 200) throw new Error(`${rel}: ${res.status} ${await res.text()}`);
  const envelope = (await res.json()) as Envelope;
  const body =
    typeof envelope.body === "string" ? (JSON.parse(envelope.body) as { results: unknown }) : envelope.body;
  return body.results;
}

export interface WireRecord {
  datapoint: string;
  datavalue: string;
}

/** The records of an all-datapoints answer, or the one record of a single-datapoint answer. */
export async function serviceRecords(sandbox: RunningSandbox, rel: string): Promise<WireRecord[]> {
  const results = await serviceResults(sandbox, rel);
  return (Array.isArray(results) ? results : [results]) as WireRecord[];
}

export async function serviceNumber(sandbox: RunningSandbox, rel: string): Promise<number> {
  const [record] = await serviceRecords(sandbox, rel);
  if (!record) throw new Error(`${rel}: no record`);
  return Number(record.datavalue);
}
