// What an error message tells the user to do depends on where the user configures the client: the task
// pane in Excel, options and environment variables in the CLI. The client takes these as an option.

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
}

export const EXCEL_HINTS: ErrorHints = {
  apiKey: "Check the key in the FDQ task pane.",
  missingKey: "Enter the key in the FDQ task pane.",
  baseUrl: "Check the base URL in the FDQ task pane: it must end in /v1.",
  connection: "Check the network connection and the base URL in the FDQ task pane.",
  arguments: "Check the function's arguments.",
  quota:
    "Cells keep their last values until they are recalculated. If your plan was raised, say so in the FDQ task pane (Usage).",
};
