// The sleep of the coalescing window, the sandbox's injected latency and the pane's pacing, and the default of the
// client's injectable `sleep` (ClientOptions.sleep), through which retries wait. The latest-period search's
// gathering window (period-resolver.ts) waits on a timer of its own.
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
