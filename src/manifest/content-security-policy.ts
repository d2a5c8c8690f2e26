// The task pane's Content-Security-Policy, one owner for every place it is sent: the page's <meta> tag (webpack.config.js
// writes it into taskpane.html from content-security-policy.json) and the header `fdq serve` sends with hosted pages.
// Scripts only from this add-in and Microsoft's office.js host; requests only to https services and a local service
// on localhost or 127.0.0.1 (the base URL is the user's choice); inline styles for Fluent UI's runtime CSS.
// No IPv6 literal such as http://[::1]:*: browsers reject them in CSP source lists (a console warning on every
// load, and the source is ignored); docs/command-line.md says what works for [::1].
import directives from "./content-security-policy.json";

/** The policy as a header or meta value: "default-src 'self'; script-src ...". */
export function policyText(policy: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(policy)
    .map(([directive, sources]) => [directive, ...sources].join(" "))
    .join("; ");
}

export const TASKPANE_CSP = policyText(directives);
