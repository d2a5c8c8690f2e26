// The task pane's Content-Security-Policy has one owner (src/manifest/content-security-policy.json): the page's
// <meta> tag is built from it (checked on the built page in test/browser/page-load.test.ts) and the header
// `fdq serve` sends with hosted pages is the same text, so the browser applies one policy. What it allows:
// csp.test.ts.
import { HOSTED_PAGE_CSP } from "../../../src/gateway";
import { policyText, TASKPANE_CSP } from "../../../src/manifest/content-security-policy";

describe("the task pane's Content-Security-Policy", () => {
  it("is the header fdq serve sends with hosted pages", () => {
    expect(HOSTED_PAGE_CSP).toBe(TASKPANE_CSP);
  });

  it("joins directives and their sources as a header value", () => {
    expect(policyText({ "default-src": ["'self'"], "img-src": ["'self'", "data:"] })).toBe(
      "default-src 'self'; img-src 'self' data:",
    );
  });
});
