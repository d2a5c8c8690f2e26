// The task pane as Excel on the desktop runs it: an empty referenced cell reaches the functions as 0
// (office-js#4702), where taskpane.test.ts runs as Excel on the web (null, and the 5 MB cap per sync). Only the
// cases whose outcome can depend on that run again here (reference-cases.ts, shared with taskpane.test.ts);
// the first of them checks that the desktop is in effect (Office.context.platform "PC", an empty cell read as 0).
import { useBrowserRig } from "./harness";
import { referenceCases } from "./reference-cases";

jest.setTimeout(60_000);

const rig = useBrowserRig();

describe("task pane in Excel on the desktop", () => {
  referenceCases(rig, "desktop");
});
