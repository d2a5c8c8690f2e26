// Public facts of the local sandbox: the key it always accepts and the port `npm run sandbox` uses.

/** The sandbox's own demo key. It only unlocks the local sandbox, never the real service. */
export const DEMO_API_KEY = "fdq-sandbox-demo-key";

export const DEFAULT_SANDBOX_PORT = 4010;
