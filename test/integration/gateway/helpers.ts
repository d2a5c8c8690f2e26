// A sandbox upstream and an in-process gateway on free ports of 127.0.0.1, with the gateway's log lines
// and store directory kept for the checks that the key is in neither.
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startGateway, type GatewayOptions, type RunningGateway } from "../../../src/gateway";
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../../src/sandbox";

export interface Rig {
  sandbox: RunningSandbox;
  gateway: RunningGateway;
  store: string;
  lines: string[];
  /** Requests the sandbox has received so far. */
  upstream(): number;
  get(pathWithQuery: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export const tempDir = (): string => mkdtempSync(path.join(os.tmpdir(), "fdq-gateway-"));

export async function startRig(
  sandboxOptions: SandboxOptions = {},
  gatewayOptions: Partial<GatewayOptions> = {},
): Promise<Rig> {
  const sandbox = await startSandbox({ port: 0, ...sandboxOptions });
  const store = gatewayOptions.store ?? tempDir();
  const lines: string[] = [];
  const gateway = await startGateway({
    upstream: sandbox.baseUrl,
    port: 0,
    store,
    log: (line) => lines.push(line),
    onWarning: (line) => lines.push(line),
    ...gatewayOptions,
  });
  return {
    sandbox,
    gateway,
    store,
    lines,
    upstream: () => sandbox.stats().requests,
    get: (p, init = {}) => {
      const { key = sandbox.demoKey, ...rest } = init;
      const headers: Record<string, string> = key === null ? {} : { "x-api-key": key };
      return fetch(`${gateway.url}${p}`, { ...rest, headers });
    },
    close: async () => {
      await gateway.close();
      await sandbox.close();
    },
  };
}

/** Every file under `dir`, with its text. */
export function filesUnder(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...filesUnder(file));
    else out.push({ file, text: readFileSync(file, "utf8") });
  }
  return out;
}
