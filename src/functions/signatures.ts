// The FDQ worksheet functions as data: names, parameters and result shapes. The JSDoc tags of
// functions.ts are what Excel reads (through the generated functions.json); this table is what the
// formula parser, the CLI and the task pane read, and test/unit/functions/metadata.test.ts keeps
// the two identical.

export const FUNCTION_NAMES = [
  "DATAPOINT",
  "DATASET",
  "SERIES",
  "RATING",
  "SECTOR",
  "COVERAGE",
  "SECURITY",
  "INFO",
  "CARD",
] as const;

export type FunctionName = (typeof FUNCTION_NAMES)[number];

export interface ParameterSpec {
  readonly name: string;
  readonly optional: boolean;
}

export interface FunctionSpec {
  readonly name: FunctionName;
  readonly parameters: readonly ParameterSpec[];
  /** "matrix" results spill; "scalar" results fill one cell. */
  readonly result: "scalar" | "matrix";
}

const required = (name: string): ParameterSpec => ({ name, optional: false });
const optional = (name: string): ParameterSpec => ({ name, optional: true });

export const FUNCTION_SPECS: Readonly<Record<FunctionName, FunctionSpec>> = {
  DATAPOINT: {
    name: "DATAPOINT",
    parameters: [
      required("ticker"),
      required("dataset"),
      required("name"),
      required("year"),
      optional("quarter"),
      optional("ttm"),
    ],
    result: "scalar",
  },
  DATASET: {
    name: "DATASET",
    parameters: [
      required("ticker"),
      required("dataset"),
      required("year"),
      optional("quarter"),
      optional("ttm"),
      optional("with_signs"),
    ],
    result: "matrix",
  },
  SERIES: {
    name: "SERIES",
    parameters: [
      required("ticker"),
      required("dataset"),
      required("name"),
      required("from_year"),
      required("to_year"),
      optional("period"),
    ],
    result: "matrix",
  },
  RATING: { name: "RATING", parameters: [required("ticker"), optional("field")], result: "scalar" },
  SECTOR: {
    name: "SECTOR",
    parameters: [required("id"), required("datapoint"), optional("prior_year")],
    result: "scalar",
  },
  COVERAGE: { name: "COVERAGE", parameters: [required("type")], result: "matrix" },
  SECURITY: {
    name: "SECURITY",
    parameters: [required("ticker"), required("field"), optional("type")],
    result: "scalar",
  },
  INFO: { name: "INFO", parameters: [required("name"), optional("field")], result: "scalar" },
  CARD: { name: "CARD", parameters: [required("ticker"), optional("type")], result: "scalar" },
};

export function isFunctionName(name: string): name is FunctionName {
  return (FUNCTION_NAMES as readonly string[]).includes(name);
}

/** "FDQ.DATAPOINT(ticker, dataset, name, year, [quarter], [ttm])" */
export function describeSignature(spec: FunctionSpec): string {
  const params = spec.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(", ");
  return `FDQ.${spec.name}(${params})`;
}
