// Many client processes at once through one gateway: ten `fdq eval` processes evaluating the same model
// file at the same moment cost the FDQ service exactly what one process alone costs (the gateway
// deduplicates identical requests in flight and keeps the day's answers), and every process prints the
// same answers as the one alone.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { runFdq, type Run } from "../cli/run-fdq";
import { startRig, tempDir, type Rig } from "./helpers";

const PROCESSES = 10;
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

/** 3 tickers x 3 years x 6 names = 54 DATAPOINT cells, one DATASET, one RATING, a few more: ~60 formulas. */
function modelFile(): string {
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

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function evalFile(r: Rig, file: string): Promise<Run> {
  return runFdq(
    ["eval", "-f", file, "--base-url", `${r.gateway.url}/v1`, "--api-key", r.sandbox.demoKey, "--no-cache"],
    { ...process.env, FDQ_BASE_URL: "", FDQ_API_KEY: "", XDG_CACHE_HOME: tempDir() },
  );
}

test("ten fdq eval processes at once cost the service what one process costs, and print the same", async () => {
  const file = modelFile();

  rig = await startRig();
  const single = await evalFile(rig, file);
  expect(single.code).toBe(0);
  expect(single.stderr).toBe("");
  const singleRequests = rig.upstream();
  expect(singleRequests).toBeGreaterThan(0);
  // Every formula has its line, and the model's numbers are there.
  expect(single.stdout.split("\n").filter((l) => l.startsWith("=FDQ.")).length).toBe(59);
  await rig.close();

  rig = await startRig();
  const r = rig;
  // All ten launched before any is awaited.
  const runs = Array.from({ length: PROCESSES }, () => evalFile(r, file));
  const outs = await Promise.all(runs);
  expect(outs.map((o) => o.code)).toEqual(Array(PROCESSES).fill(0));
  for (const out of outs) {
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe(single.stdout);
  }
  expect(rig.upstream()).toBe(singleRequests);
}, 60_000);
