// The pane's Content-Security-Policy lets it reach every base URL the settings accept, and load office.js
// from both of Microsoft's hosts (office-platform notes: the newer onecdn host).
import { readFileSync } from "node:fs";
import path from "node:path";
import { LOCAL_HOSTS, checkBaseUrl } from "../../../src/api/settings";

const html = readFileSync(path.join(__dirname, "../../../src/taskpane/taskpane.html"), "utf8");
const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? "";
const directive = (name: string): string[] =>
  policy
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

describe("the task pane's Content-Security-Policy", () => {
  it("connects to every host the settings accept: any https URL and http on each local host", () => {
    expect(directive("connect-src")).toContain("https:");
    for (const host of LOCAL_HOSTS) {
      expect(checkBaseUrl(`http://${host}:4010/v1`)).toBe(`http://${host}:4010/v1`);
      expect(directive("connect-src")).toContain(`http://${host}:*`);
    }
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
