// The pane's Content-Security-Policy (src/manifest/content-security-policy.json, written into taskpane.html's
// <meta> by webpack.config.js) lets it reach the base URLs the settings accept, and load office.js from both of
// Microsoft's hosts (office-platform notes: the newer onecdn host). The one exception is http on the IPv6
// loopback: browsers reject IPv6 literals in CSP source lists (a console warning on every load, and the
// source is ignored), so http://[::1] is accepted by the settings but cannot be listed; docs/command-line.md
// says to use localhost or 127.0.0.1 in the pane.
import { checkBaseUrl, LOCAL_HOSTS } from "../../../src/api";
import { TASKPANE_CSP } from "../../../src/manifest/content-security-policy";

const directive = (name: string): string[] =>
  TASKPANE_CSP.split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

describe("the task pane's Content-Security-Policy", () => {
  it("connects to every host the settings accept: any https URL and http on each local host by name", () => {
    expect(directive("connect-src")).toContain("https:");
    const named = [...LOCAL_HOSTS].filter((host) => !host.startsWith("["));
    expect(named).toEqual(["localhost", "127.0.0.1"]);
    for (const host of LOCAL_HOSTS)
      expect(checkBaseUrl(`http://${host}:4010/v1`)).toBe(`http://${host}:4010/v1`);
    for (const host of named) expect(directive("connect-src")).toContain(`http://${host}:*`);
  });

  it("lists no IPv6 literal, which browsers reject in source lists", () => {
    expect(TASKPANE_CSP).not.toContain("[::1]");
    expect(TASKPANE_CSP).not.toMatch(/\[/);
  });

  it("loads office.js from both Microsoft hosts, as script and frame", () => {
    for (const host of [
      "https://appsforoffice.microsoft.com",
      "https://officeapis.public.onecdn.static.microsoft",
    ]) {
      expect(directive("script-src")).toContain(host);
      expect(directive("frame-src")).toContain(host);
    }
  });
});
