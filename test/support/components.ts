// The programs some tests need besides Node, found on PATH: LibreOffice, Redis, Chromium, openssl. Where one is
// missing, the tests that need it skip and the file prints one line on stderr naming it and how to install it.
// Under CI=true they fail with that sentence instead: a CI run is green only when every check ran, so a missing
// component (a failed install, a PATH without it) turns it red, saying why.
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

export interface Component {
  /** What it is called: "LibreOffice". */
  readonly name: string;
  /** The programs that are it, in order of preference: the first found on PATH is used. */
  readonly programs: readonly string[];
  /** Which tests need it: "the LibreOffice tests". */
  readonly tests: string;
  /** How to install it. */
  readonly install: string;
}

export const LIBREOFFICE: Component = {
  name: "LibreOffice",
  programs: ["soffice"],
  tests: "the LibreOffice tests",
  install:
    "sudo apt-get install libreoffice-calc-nogui (scripts/ensure-libreoffice.sh does it in a root shell)",
};

export const REDIS: Component = {
  name: "Redis",
  programs: ["redis-server"],
  tests: "the gateway's Redis tests",
  install: "sudo apt-get install redis-server (scripts/ensure-redis.sh does it in a root shell)",
};

/** chromium-headless-shell first: the same engine as chromium, each new page at about half the cost. */
export const CHROMIUM: Component = {
  name: "Chromium",
  programs: ["chromium-headless-shell", "chromium"],
  tests: "the browser tests",
  install:
    "sudo apt-get install chromium chromium-headless-shell (scripts/ensure-chromium.sh does it in a root shell)",
};

export const OPENSSL: Component = {
  name: "openssl",
  programs: ["openssl"],
  tests: "the gateway's https tests",
  install: "sudo apt-get install openssl",
};

/** Whether this is a CI run (CI=true, as `.ci/run` is run), where no check may be skipped. */
export const ON_CI = process.env.CI === "true";

/** The path of `program` in a folder of PATH, or undefined. */
export function onPath(program: string, searchPath: string = process.env.PATH ?? ""): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** How a missing component is taken: its tests skip, or (under CI=true, or for a component they cannot do without) fail. */
export type WhenMissing = "skip" | "fail on CI" | "fail";

/** The sentence said when `c` is missing, for the test file `file`. */
export function missingSentence(c: Component, file: string, when: WhenMissing): string {
  const [first, ...others] = c.programs;
  const where =
    others.length === 0 ? `${first} is not on PATH` : `neither ${c.programs.join(" nor ")} is on PATH`;
  const install = `Install it: ${c.install}.`;
  if (when === "skip") return `${c.name} is missing (${where}): ${file} skips ${c.tests}. ${install}`;
  if (when === "fail on CI")
    return `${c.name} is missing (${where}), and CI=true, where ${c.tests} must run: ${file} fails rather than skips. ${install}`;
  return `${c.name} is missing (${where}): ${file} cannot run ${c.tests}. ${install}`;
}

/** The path of the first of `c`'s programs found on PATH, or undefined. */
export function locate(c: Component): string | undefined {
  for (const program of c.programs) {
    const found = onPath(program);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The running test file, relative to the working folder, for the sentences. */
export function testFile(): string {
  return path.relative(process.cwd(), expect.getState().testPath ?? "") || "this test file";
}

/**
 * The path of `c`'s program. When it is missing: under CI=true, throws the sentence (the test file fails to run,
 * naming the component); elsewhere prints it on stderr and answers undefined, for the file to skip its tests.
 */
export function findComponent(c: Component): string | undefined {
  const found = locate(c);
  if (found !== undefined) return found;
  if (ON_CI) throw new Error(missingSentence(c, testFile(), "fail on CI"));
  process.stderr.write(`${missingSentence(c, testFile(), "skip")}\n`);
  return undefined;
}

/** The path of `c`'s program, for tests that cannot do without it anywhere; throws the sentence when it is missing. */
export function requireComponent(c: Component): string {
  const found = locate(c);
  if (found === undefined) throw new Error(missingSentence(c, testFile(), "fail"));
  return found;
}
