// What an error message tells the user to do depends on where the user configures the client: the task
// pane in Excel (src/host/excel-hints.ts), options and environment variables in the CLI (src/cli/hints.ts).
// Each surface passes its own as the client's `hints` option; the request module owns only their shape and a
// wording that names no surface, for callers that pass none (a script, the gateway's own reading of answers).

export interface ErrorHints {
  /** After a refused API key. */
  apiKey: string;
  /** When no API key is set. */
  missingKey: string;
  /** After an answer that is not the service's (a 404, an HTML page): the base URL is the likely cause. */
  baseUrl: string;
  /** After no answer at all. */
  connection: string;
  /** After a 400 the spec does not list: the service's message names the argument. */
  arguments: string;
  /** After the monthly quota is spent: where the user says the plan was raised. */
  quota: string;
  /** After a ticker the service does not cover: check the spelling, and where the covered tickers are listed. */
  ticker: string;
  /** How the user asks again once a passing failure is over (a throttle, an outage, a timeout): a verb. */
  retry: string;
}

/** The hints of a caller that names no surface: they say what to check, not where. */
export const NEUTRAL_HINTS: ErrorHints = {
  apiKey: "Check the API key.",
  missingKey: "Set the API key.",
  baseUrl: "Check the base URL: it must end in /v1.",
  connection: "Check the network connection and the base URL.",
  arguments: "Check the request's arguments.",
  quota: "If the plan was raised, tell the client (planRaised).",
  ticker: "Check the spelling; the coverage endpoint lists the covered tickers.",
  retry: "send the request again",
};
