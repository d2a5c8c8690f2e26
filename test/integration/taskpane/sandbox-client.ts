// Each test file's in-process sandbox (127.0.0.1, ephemeral port) and a fresh client on it per test.
import { DEFAULTS, FdqClient, RefreshDayClock } from "../../../src/api";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";

export interface SandboxClient {
  readonly sandbox: RunningSandbox;
  readonly client: FdqClient;
  /** Requests the sandbox has answered so far. */
  requests(): number;
}

/** Registers the hooks; the returned object's fields are set once the hooks have run. */
export function useSandboxClient(): SandboxClient {
  let sandbox: RunningSandbox | undefined;
  let client: FdqClient | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  beforeEach(() => {
    client = new FdqClient({ baseUrl: sandbox!.baseUrl, apiKey: sandbox!.demoKey });
  });
  afterEach(async () => {
    await client?.close();
  });
  return {
    get sandbox() {
      return sandbox!;
    },
    get client() {
      return client!;
    },
    requests: () => sandbox!.stats().requests,
  };
}

export const today = (): string => new RefreshDayClock(DEFAULTS.refreshDay).label(Date.now());
