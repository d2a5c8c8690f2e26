// What fdq's error messages tell the user to do: its own options and environment variables, not the task pane.
import type { ErrorHints } from "../api";

const BASE_URL = "--base-url or FDQ_BASE_URL";

/** `localSandbox`: no base URL was given, so fdq talks to the sandbox of `npm run sandbox`, if it runs. */
export function cliHints(localSandbox: boolean): ErrorHints {
  return {
    apiKey: "Check the key given with --api-key or FDQ_API_KEY.",
    missingKey: "Give the key with --api-key or FDQ_API_KEY.",
    baseUrl: `Check the base URL (${BASE_URL}): it must end in /v1.`,
    connection: localSandbox
      ? `Is the local sandbox running? Start it with "npm run sandbox", or pass --sandbox to start one for this run, or give the service with ${BASE_URL}.`
      : `Check the network connection and the base URL (${BASE_URL}).`,
    arguments: "Check the formula's arguments.",
    quota: 'If your plan was raised, run "fdq usage --plan-raised".',
    ticker: 'Check the spelling; =FDQ.COVERAGE("stock") lists the covered stocks.',
    // As fdq has always said it: fdq refresh recalculates the workbook's FDQ cells.
    retry: "recalculate",
  };
}
