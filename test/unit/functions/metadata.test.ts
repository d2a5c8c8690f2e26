import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { FUNCTION_NAMES, FUNCTION_SPECS } from "../../../src/functions/signatures";

const FUNCTIONS_TS = path.resolve(__dirname, "../../../src/functions/functions.ts");

interface MetadataParameter {
  name: string;
  type: string;
  optional?: boolean;
  dimensionality?: string;
}
interface MetadataFunction {
  id: string;
  name: string;
  description: string;
  parameters: MetadataParameter[];
  result: { dimensionality?: string };
}

describe("functions.json generated from the JSDoc of functions.ts", () => {
  let functions: MetadataFunction[];
  let metadata: { allowCustomDataForDataTypeAny?: unknown };
  let associate: { functionName: string; id: string }[];

  beforeAll(async () => {
    const result = await generateCustomFunctionsMetadata(FUNCTIONS_TS);
    expect(result.errors).toEqual([]);
    metadata = JSON.parse(result.metadataJson) as typeof metadata;
    functions = (metadata as { functions: MetadataFunction[] }).functions;
    associate = result.associate;
  });

  it("declares exactly the nine FDQ functions, id = name = upper-case function name", () => {
    expect(functions.map((f) => f.id)).toEqual([...FUNCTION_NAMES]);
    expect(functions.map((f) => f.name)).toEqual([...FUNCTION_NAMES]);
    expect(associate.map((a) => [a.id, a.functionName])).toEqual(
      FUNCTION_NAMES.map((n) => [n, n.toLowerCase()]),
    );
  });

  it("has the parameters of the issue, in order, with the optional ones flagged", () => {
    for (const f of functions) {
      const spec = FUNCTION_SPECS[f.id as keyof typeof FUNCTION_SPECS];
      expect(f.parameters.map((p) => ({ name: p.name, optional: p.optional === true }))).toEqual(
        spec.parameters.map((p) => ({ name: p.name, optional: p.optional })),
      );
    }
    expect(functions[0]?.parameters.map((p) => p.name)).toEqual([
      "ticker",
      "dataset",
      "name",
      "year",
      "quarter",
      "ttm",
    ]);
  });

  it("spills (matrix) exactly DATASET, SERIES and COVERAGE", () => {
    const matrix = functions.filter((f) => f.result.dimensionality === "matrix").map((f) => f.id);
    expect(matrix).toEqual(["DATASET", "SERIES", "COVERAGE"]);
    for (const f of functions) {
      const spec = FUNCTION_SPECS[f.id as keyof typeof FUNCTION_SPECS];
      expect([f.id, f.result.dimensionality ?? "scalar"]).toEqual([f.id, spec.result]);
    }
  });

  it("passes text arguments as text and the others unconverted, so bad values get our own message", () => {
    const types = Object.fromEntries(functions.map((f) => [f.id, f.parameters.map((p) => p.type)]));
    expect(types["DATAPOINT"]).toEqual(["any", "string", "string", "any", "any", "any"]);
    expect(types["RATING"]).toEqual(["any", "any"]);
    expect(types["COVERAGE"]).toEqual(["string"]);
    expect(types["DATASET"]).toEqual(["any", "string", "any", "any", "any", "any"]);
    expect(types["CARD"]).toEqual(["any", "any"]);
  });

  it("allows custom data for `any` parameters, and types every ticker `any`, so a card or a Stocks entity reaches it", () => {
    // Without the flag Excel passes an entity to an `any` parameter as its basic value (#VALUE!), not its JSON.
    expect(metadata.allowCustomDataForDataTypeAny).toBe(true);
    for (const f of functions) {
      const ticker = f.parameters.find((p) => p.name === "ticker");
      if (ticker) expect([f.id, ticker.type]).toEqual([f.id, "any"]);
    }
  });

  it("keeps the scalar functions' parameters scalar (Excel lifts a range) and gives the spilling ones matrices", () => {
    // office-js-docs-pr#2238: a range given to a scalar parameter is array-lifted; a function that returns
    // a matrix cannot be, so DATASET, SERIES and COVERAGE receive the range and refuse it themselves.
    const dims = Object.fromEntries(
      functions.map((f) => [f.id, [...new Set(f.parameters.map((p) => p.dimensionality ?? "scalar"))]]),
    );
    expect(dims).toEqual({
      DATAPOINT: ["scalar"],
      DATASET: ["matrix"],
      SERIES: ["matrix"],
      RATING: ["scalar"],
      SECTOR: ["scalar"],
      COVERAGE: ["matrix"],
      SECURITY: ["scalar"],
      INFO: ["scalar"],
      CARD: ["scalar"],
    });
  });

  it("describes every function and parameter for Excel's formula help", () => {
    for (const f of functions) {
      expect(f.description.length).toBeGreaterThan(20);
      for (const p of f.parameters as (MetadataParameter & { description?: string })[]) {
        expect(p.description?.length ?? 0).toBeGreaterThan(3);
      }
    }
  });
});
