// Offline check that the custom functions' metadata and the values they return agree: functions.json is generated
// from src/functions/functions.ts as the build generates it (custom-functions-metadata), and
// - it allows custom data for `any` parameters (allowCustomDataForDataTypeAny), which Excel needs to pass an entity
//   (an FDQ card, a Stocks data type) or a number with its source to a function as its JSON;
// - every ticker parameter is `any`, so it can receive such an entity;
// - every function that may return a data-type value (FDQ.CARD's entity; with "numbers with their source", the
//   numbers of DATAPOINT, DATASET, SERIES and SECTOR) declares its result `any`: a result declared a number or text
//   would make Excel convert the value;
// - the values the functions build (a card with metrics, a number with its source) keep Microsoft's documented shape
//   (src/functions/cell-values.ts cellValueProblems).
// `npm run validate` runs it after the manifests; it exits 1 and lists every problem.
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import type { ApiResult, DatapointResult, RatingsRecord, SecurityRecord } from "../src/api";
import { cellValueProblems } from "../src/functions/cell-values";
import * as impl from "../src/functions/impl";

const FUNCTIONS_TS = path.resolve(__dirname, "../src/functions/functions.ts");

/** The functions whose result may be a data-type value. */
export const RICH_RESULTS = ["DATAPOINT", "DATASET", "SERIES", "SECTOR", "CARD"] as const;

interface Metadata {
  allowCustomDataForDataTypeAny?: unknown;
  functions: { id: string; parameters: { name: string; type?: string }[]; result: { type?: string } }[];
}

export function metadataProblems(metadata: Metadata): string[] {
  const problems: string[] = [];
  if (metadata.allowCustomDataForDataTypeAny !== true) {
    problems.push(
      "functions.json: allowCustomDataForDataTypeAny is not true, so Excel passes no entity to a function",
    );
  }
  for (const f of metadata.functions) {
    const ticker = f.parameters.find((p) => p.name === "ticker");
    if (ticker && ticker.type !== "any") {
      problems.push(
        `functions.json: ${f.id}'s ticker is ${ticker.type ?? "untyped"}, not any: it cannot take a card`,
      );
    }
    if ((RICH_RESULTS as readonly string[]).includes(f.id) && f.result.type !== undefined) {
      problems.push(
        `functions.json: ${f.id} returns data-type values but declares its result ${f.result.type}`,
      );
    }
  }
  for (const id of RICH_RESULTS) {
    if (!metadata.functions.some((f) => f.id === id)) problems.push(`functions.json: ${id} is missing`);
  }
  return problems;
}

const REFRESH_DAY = "2026-11-27";
const answer = <T>(data: T): ApiResult<T> => ({
  data,
  source: "network",
  refreshDay: REFRESH_DAY,
  url: "https://example.test/v1/x",
});

/** A client that answers every call with one fixed record: the values' shape, not their data, is checked. */
const sample: impl.FdqApi = {
  security: (type, ticker) =>
    Promise.resolve(
      answer<SecurityRecord>({
        ticker,
        name: "Sample Holdings",
        type,
        sector: "TECHNOLOGYSEC",
        last_trade_date: REFRESH_DAY,
        sector_name: "Technology",
        subsector: "HW",
        subsector_name: "Hardware",
        industry: "DEV",
        industry_name: "Devices",
        subindustry: "NA",
        subindustry_name: "NA",
      }),
    ),
  ratings: (ticker) =>
    Promise.resolve(
      answer<RatingsRecord>({
        ticker,
        name: "Sample Holdings",
        ratings: { rating_overall: 2, rating_roic: 1 },
      }),
    ),
  datapoint: (request) => {
    const result: DatapointResult = {
      source: "network",
      refreshDay: REFRESH_DAY,
      url: "https://example.test/v1/metrics/roic/AAPL",
      value: 0.146,
      record: {
        ticker: "AAPL",
        year: 2025,
        period: 5,
        periodtype: "ANNUAL",
        periodstring: "ANNUAL",
        datapoint: request.name.toUpperCase(),
        datavalue: "0.146",
        filingtype: "10-K",
      },
      resolved: {
        text: "FY0",
        year: 2025,
        period: 5,
        periodtype: "ANNUAL",
        words: "FY0 = fiscal 2025",
        resolvedOn: REFRESH_DAY,
      },
    };
    return Promise.resolve(result);
  },
  dataset: () => Promise.reject(new Error("not used")),
  datapointInfo: () => Promise.reject(new Error("not used")),
  coverageList: () => Promise.reject(new Error("not used")),
  sector: () => Promise.reject(new Error("not used")),
  plan: () => ({ units: 1 }) as ReturnType<NonNullable<impl.FdqApi["plan"]>>,
};

export async function valueProblems(): Promise<string[]> {
  const card = await impl.card(sample, { ticker: "AAPL" }, [
    { dataset: "roic", name: "ROIC", period: "FY0" },
    { dataset: "roic", name: "ROIC", period: "FY-1" },
  ]);
  const number = await impl.datapoint(
    sample,
    { ticker: "AAPL", dataset: "roic", name: "ROIC", year: "FY0" },
    true,
  );
  return [
    ...cellValueProblems(card, "FDQ.CARD"),
    ...cellValueProblems(number, "FDQ.DATAPOINT with its source"),
  ];
}

async function main(): Promise<number> {
  const generated = await generateCustomFunctionsMetadata(FUNCTIONS_TS);
  const problems = [...generated.errors];
  if (problems.length === 0)
    problems.push(...metadataProblems(JSON.parse(generated.metadataJson) as Metadata));
  problems.push(...(await valueProblems()));
  if (problems.length > 0) {
    for (const p of problems) console.error(`  ${p}`);
    console.error(`functions: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    return 1;
  }
  console.log(
    "functions.json and the values the functions return agree (data types allowed, tickers any, shapes valid)",
  );
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
