// docs/formula-engine.md names the functions dependents may use: exactly the engine's function table.
import { readFileSync } from "node:fs";
import path from "node:path";
import { SUPPORTED_FUNCTIONS } from "../../../../src/workbook/engine/functions";

describe("the documented function list", () => {
  it("names every function of the engine's table, and no other", () => {
    const doc = readFileSync(path.join(__dirname, "../../../../docs/formula-engine.md"), "utf8");
    const section = doc.split("## Functions dependents may use")[1]?.split("\n\n")[1] ?? "";
    const listed = section
      .replace(/\([^)]*\)/g, "")
      .replace(/, and the FDQ functions\./, "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    expect(listed).toEqual([...SUPPORTED_FUNCTIONS]);
  });
});
