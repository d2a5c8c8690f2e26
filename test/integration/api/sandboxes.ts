// Sandboxes for one test file: each started on a free port with the file's defaults, all stopped after it.
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../../src/sandbox";

export function sandboxes(defaults: SandboxOptions): (options?: SandboxOptions) => Promise<RunningSandbox> {
  const open: RunningSandbox[] = [];
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
  });
  return async (options = {}) => {
    const running = await startSandbox({ ...defaults, ...options });
    open.push(running);
    return running;
  };
}
