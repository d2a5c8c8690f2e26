// The one sleep of the project: retries, the coalescing window, the sandbox's injected latency, the pane's
// pacing and the tests all wait through it (the request module takes it as an injectable option).
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
