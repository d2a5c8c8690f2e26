// The whole task pane suite again as Excel on the desktop runs it: an empty referenced cell reaches the
// functions as 0 (office-js#4702), where taskpane.test.ts runs as Excel on the web (null, and the 5 MB cap
// per sync). The harness reads the mode when it is loaded, so it is set before the suite is required.
process.env.FDQ_OFFICE_PLATFORM = "desktop";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- must run after the line above; an import would be hoisted.
require("./taskpane.test");
