// What error messages tell an Excel user to do: settings live in the FDQ task pane. Host wording, so it lives
// on the host side; the shared runtime's client and the pane's own clients pass it as their `hints`, and the
// request module (src/api) only words its messages with it.
import type { ErrorHints } from "../api";

export const EXCEL_HINTS: ErrorHints = {
  apiKey: "Check the key in the FDQ task pane.",
  missingKey: "Enter the key in the FDQ task pane.",
  baseUrl: "Check the base URL in the FDQ task pane: it must end in /v1.",
  connection: "Check the network connection and the base URL in the FDQ task pane.",
  arguments: "Check the function's arguments.",
  quota:
    "Cells keep their last values until they are recalculated. If your plan was raised, say so in the FDQ task pane (Usage).",
  ticker: "Check the spelling, or search the ticker list in the FDQ task pane (Find a ticker).",
  retry: "recalculate",
};
