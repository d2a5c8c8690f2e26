// The model that the many-clients tests evaluate with `fdq eval` processes through a gateway: 3 tickers x 3
// years x 6 names = 54 DATAPOINT cells, one DATASET, two RATING, a missing datapoint and a SECURITY cell.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { runFdq, type Run } from "../cli/run-fdq";
import { tempDir } from "./helpers";

const TICKERS = ["AAPL", "MSFT", "NFLX"];
const YEARS = [2021, 2022, 2023];
const NAMES: Array<[dataset: string, name: string]> = [
  ["metrics/roic", "ROIC"],
  ["metrics/roic", "NOPAT"],
  ["metrics/roic", "CAPITAL_INVESTED_ADJUSTED"],
  ["screens/traditional", "REVENUE"],
  ["screens/traditional", "PROFIT_GROSS"],
  ["screens/traditional", "EXPENSES_SGA"],
];

/** Formulas in the model: each has its line in `fdq eval`'s output. */
export const MODEL_FORMULAS = 59;

/** Writes the model to a fresh file and answers its path. */
export function modelFile(): string {
  const lines = [
    ...TICKERS.flatMap((ticker) =>
      YEARS.flatMap((year) =>
        NAMES.map(([dataset, name]) => `=FDQ.DATAPOINT("${ticker}","${dataset}","${name}",${year})`),
      ),
    ),
    '=FDQ.DATASET("AAPL","net-income-to-nopat",2023)',
    '=FDQ.RATING("AAPL")',
    '=FDQ.RATING("MSFT","name")',
    '=FDQ.DATAPOINT("AAPL","metrics/roic","NOT_A_DATAPOINT",2023)',
    '=FDQ.SECURITY("NFLX","name")',
  ];
  const file = path.join(tempDir(), "model.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** `fdq eval -f FILE` as a process through the gateway at `gatewayUrl`, without the CLI's own cache. */
export function evalFile(gatewayUrl: string, apiKey: string, file: string): Promise<Run> {
  return runFdq(["eval", "-f", file, "--base-url", `${gatewayUrl}/v1`, "--api-key", apiKey, "--no-cache"], {
    ...process.env,
    FDQ_BASE_URL: "",
    FDQ_API_KEY: "",
    XDG_CACHE_HOME: tempDir(),
  });
}
