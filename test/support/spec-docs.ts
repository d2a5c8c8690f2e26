// The FDQ spec documents (service-spec.md, datapoint-catalogs.md, wire-notes.md) are not part of this repository:
// they live in ../shared/spec beside it, where CI has them. Tests that read them declare their blocks with
// describeWithSpec: they run where the folder exists; on a clone without it, the file prints one line on stderr
// saying where the folder was looked for, and those blocks are skipped. FDQ_SPEC_DIR points at another folder.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Where the spec documents are looked for. */
export const SPEC_DIR = path.resolve(
  process.env.FDQ_SPEC_DIR || path.join(__dirname, "../../../shared/spec"),
);

/** Whether the spec folder exists, decided once when a test file loads. */
export const HAS_SPEC = existsSync(SPEC_DIR);

if (!HAS_SPEC) {
  const file = path.relative(process.cwd(), expect.getState().testPath ?? "") || "a test file";
  process.stderr.write(
    `spec folder missing: ${SPEC_DIR} does not exist, so ${file} skips its tests that read the spec documents ` +
      `(CI has the folder; FDQ_SPEC_DIR=DIR names another).\n`,
  );
}

const texts = new Map<string, string>();

/** The text of one spec document ("datapoint-catalogs.md"); call it only inside a describeWithSpec block. */
export function readSpec(name: string): string {
  let text = texts.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(SPEC_DIR, name), "utf8");
    texts.set(name, text);
  }
  return text;
}

/**
 * `describe` for tests that read the spec documents. Without the spec folder the block is skipped whole, and its
 * body is not run (it may read the documents while it declares its tests): one skipped test stands for it.
 */
export function describeWithSpec(title: string, body: () => void): void {
  if (HAS_SPEC) {
    describe(title, body);
    return;
  }
  describe.skip(title, () => {
    it(`needs the spec documents in ${SPEC_DIR}`, () => undefined);
  });
}
