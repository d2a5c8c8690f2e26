// docs/functions.md's reference is generated from the functions' JSDoc (scripts/gen-function-docs.ts): this
// regenerates it in memory and fails while the page on disk differs, so the reference cannot drift from what
// Excel shows.
import { readFileSync } from "node:fs";
import {
  BEGIN_MARKER,
  END_MARKER,
  FUNCTIONS_DOC,
  generateReference,
  renderReference,
  returnsByFunction,
  withReference,
} from "../../../scripts/gen-function-docs";

describe("docs/functions.md, the function reference", () => {
  it("matches the reference generated from src/functions/functions.ts (else: run npm run docs:functions)", async () => {
    const onDisk = readFileSync(FUNCTIONS_DOC, "utf8");
    const expected = withReference(onDisk, await generateReference());
    if (onDisk !== expected) {
      throw new Error(
        "docs/functions.md is stale: its function reference differs from the JSDoc in " +
          "src/functions/functions.ts; run npm run docs:functions",
      );
    }
    for (const name of [
      "DATAPOINT",
      "DATASET",
      "SERIES",
      "RATING",
      "SECTOR",
      "COVERAGE",
      "SECURITY",
      "INFO",
    ]) {
      expect(onDisk).toContain(`### ${name}\n`);
    }
  });

  it("replaces only the text between the markers", () => {
    const doc = `# Title\n\nBefore.\n\n${BEGIN_MARKER}\n\nold reference\n\n${END_MARKER}\n\nAfter.\n`;
    const out = withReference(doc, "new reference");
    expect(out).toBe(`# Title\n\nBefore.\n\n${BEGIN_MARKER}\n\nnew reference\n\n${END_MARKER}\n\nAfter.\n`);
  });

  it("refuses a page without the markers", () => {
    expect(() => withReference("# Title\n", "x")).toThrow("must hold the two markers");
  });

  it("renders each parameter, optional ones in brackets, and the @returns text", () => {
    const source = `/**\n * Twice.\n * @customfunction TWICE\n * @param x A number.\n * @returns Two times x,\n *   as a number.\n */`;
    const out = renderReference(
      [
        {
          id: "TWICE",
          name: "TWICE",
          description: "Twice a | b.",
          parameters: [
            { name: "x", description: "A number." },
            { name: "y", optional: true },
          ],
        },
      ],
      returnsByFunction(source),
    );
    expect(out).toContain("`FDQ.TWICE(x, [y])`");
    expect(out).toContain("Twice a \\| b.");
    expect(out).toContain("| `x` | required | A number. |");
    expect(out).toContain("| `y` | optional |  |");
    expect(out).toContain("**Returns:** Two times x, as a number.");
  });
});
