// The programs tests need besides Node (test/support/components.ts): found on PATH; a missing one makes its tests
// skip with one line, except under CI=true, where it fails the test file with the same facts.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

type Components = typeof import("../../support/components");

/** The module as loaded with CI and PATH set so (its CI switch is read when it loads). */
function loadWith(env: { CI?: string; PATH: string }, use: (m: Components) => void): void {
  const saved = { CI: process.env.CI, PATH: process.env.PATH };
  if (env.CI === undefined) delete process.env.CI;
  else process.env.CI = env.CI;
  process.env.PATH = env.PATH;
  try {
    jest.isolateModules(() => use(jest.requireActual<Components>("../../support/components")));
  } finally {
    if (saved.CI === undefined) delete process.env.CI;
    else process.env.CI = saved.CI;
    process.env.PATH = saved.PATH;
  }
}

/** A folder holding `programs` as executable files, plus a non-executable `plain` and a folder `folder`. */
function binFolder(...programs: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-bin-"));
  for (const name of programs) {
    writeFileSync(path.join(dir, name), "#!/bin/sh\n");
    chmodSync(path.join(dir, name), 0o755);
  }
  writeFileSync(path.join(dir, "plain"), "not a program");
  mkdirSync(path.join(dir, "folder"));
  chmodSync(path.join(dir, "folder"), 0o755);
  return dir;
}

const FILE = "test/unit/support/components.test.ts";

describe("finding a component", () => {
  it("takes the first of its programs found on PATH, in its order of preference", () => {
    const full = binFolder("chromium");
    const shell = binFolder("chromium-headless-shell");
    loadWith({ PATH: [full, shell].join(path.delimiter) }, (m) => {
      expect(m.locate(m.CHROMIUM)).toBe(path.join(shell, "chromium-headless-shell"));
    });
    loadWith({ PATH: full }, (m) => {
      expect(m.locate(m.CHROMIUM)).toBe(path.join(full, "chromium"));
    });
  });

  it("does not take a file that cannot be run, or a folder", () => {
    const dir = binFolder();
    loadWith({ PATH: dir }, (m) => {
      expect(m.onPath("plain")).toBeUndefined();
      expect(m.onPath("folder")).toBeUndefined();
      expect(m.onPath("soffice")).toBeUndefined();
    });
  });
});

describe("a missing component", () => {
  it("skips its tests with one line naming it and how to install it, outside CI", () => {
    const write = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      loadWith({ PATH: binFolder() }, (m) => {
        expect(m.ON_CI).toBe(false);
        expect(m.findComponent(m.LIBREOFFICE)).toBeUndefined();
      });
      expect(write.mock.calls).toEqual([
        [
          `LibreOffice is missing (soffice is not on PATH): ${FILE} skips the LibreOffice tests. Install it: ` +
            "sudo apt-get install libreoffice-calc-nogui (scripts/ensure-libreoffice.sh does it in a root shell).\n",
        ],
      ]);
    } finally {
      write.mockRestore();
    }
  });

  it("fails the test file under CI=true, naming it and how to install it", () => {
    loadWith({ CI: "true", PATH: binFolder("soffice") }, (m) => {
      expect(m.ON_CI).toBe(true);
      expect(() => m.findComponent(m.REDIS)).toThrow(
        `Redis is missing (redis-server is not on PATH), and CI=true, where the gateway's Redis tests must run: ` +
          `${FILE} fails rather than skips. Install it: sudo apt-get install redis-server ` +
          "(scripts/ensure-redis.sh does it in a root shell).",
      );
      expect(m.findComponent(m.LIBREOFFICE)).toMatch(/soffice$/);
    });
  });

  it("that its tests cannot do without (Chromium) fails them anywhere", () => {
    loadWith({ PATH: binFolder() }, (m) => {
      expect(() => m.requireComponent(m.CHROMIUM)).toThrow(
        `Chromium is missing (neither chromium-headless-shell nor chromium is on PATH): ${FILE} cannot run the ` +
          "browser tests. Install it: sudo apt-get install chromium chromium-headless-shell " +
          "(scripts/ensure-chromium.sh does it in a root shell).",
      );
    });
  });
});
