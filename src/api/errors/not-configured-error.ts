import { FdqError } from "./fdq-error";

/** No API key has been saved yet, so no request can be made. */
export class NotConfiguredError extends FdqError {
  override name = "NotConfiguredError" as const;

  constructor() {
    super("No FDQ API key is set. Enter the key in the FDQ task pane.");
  }
}
