// What `npm start` says about sideloading (scripts/start-instructions.ts) and how it decides whether the dev server
// serves https (scripts/dev-certificates.ts): over http it never hands out a manifest Excel would refuse.
import { devServerScheme } from "../../../scripts/dev-certificates";
import { startInstructions, type StartState } from "../../../scripts/start-instructions";

const STATE: Omit<StartState, "scheme"> = {
  sandboxUrl: "http://127.0.0.1:4010/v1",
  demoKey: "fdq-sandbox-demo-key",
  port: 3000,
  reason: "no desktop Excel on linux",
  root: "/repo",
};

describe("npm start: the dev server's scheme", () => {
  it("is http on Linux without the development certificate, and https with it", () => {
    expect(devServerScheme({}, "linux", () => false)).toEqual({
      https: false,
      reason: "this machine has no development certificate",
    });
    expect(devServerScheme({}, "linux", () => true)).toEqual({ https: true });
  });

  it("is https on Windows and macOS, where the dev server makes the certificate on first use", () => {
    expect(devServerScheme({}, "win32", () => false)).toEqual({ https: true });
    expect(devServerScheme({}, "darwin", () => false)).toEqual({ https: true });
  });

  it("is http when FDQ_DEV_HTTP=1 asks for it", () => {
    expect(devServerScheme({ FDQ_DEV_HTTP: "1" }, "win32", () => true)).toEqual({
      https: false,
      reason: "FDQ_DEV_HTTP=1 asks for http",
    });
  });
});

describe("npm start: what it says about sideloading", () => {
  it("over http: says Excel will not load the add-in, gives the one command that installs the certificate, offers no manifest", () => {
    const text = startInstructions({
      ...STATE,
      scheme: { https: false, reason: "this machine has no development certificate" },
    });
    expect(text).toContain(
      "  add-in      http://localhost:3000/taskpane.html  (dev server, over http: this machine has no development certificate)",
    );
    expect(text).toContain("Excel will NOT load the add-in from here: it loads add-ins only over https");
    expect(text).toContain("\n  npx office-addin-dev-certs install\n");
    expect(text).not.toContain("manifest.xml");
    expect(text).not.toContain("manifest.json");
    expect(text).not.toContain("Upload");
  });

  it("over https: names manifest.xml for Upload My Add-in and the app package for Microsoft 365", () => {
    const text = startInstructions({ ...STATE, scheme: { https: true } });
    expect(text).toContain("  add-in      https://localhost:3000/taskpane.html  (dev server)");
    expect(text).toContain("Excel was not started (no desktop Excel on linux).");
    expect(text).toContain(
      "      /repo/manifest.xml\n    (Excel on the web: Home > Add-ins > More Add-ins > Upload My Add-in",
    );
    expect(text).toContain(
      "the unified manifest /repo/manifest.json in its app package\n      https://localhost:3000/fdq-for-excel.zip",
    );
    expect(text).not.toContain("office-addin-dev-certs");
  });
});
