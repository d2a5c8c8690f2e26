// fdq retrofit's matching run over fake services (src/workbook/retrofit/retrofit.ts): what it fetches and when,
// ambiguity, wrong numbers and the formulas it proposes.
import { CatalogSearchIndex } from "../../../../src/catalog/search";
import type { FdqCall } from "../../../../src/functions/formula";
import type { GridCell, GridSheet } from "../../../../src/workbook/retrofit/grid";
import {
  countRows,
  planRetrofit,
  priceRetrofit,
  runRetrofit,
  storedFormulaOf,
  type RetrofitServices,
} from "../../../../src/workbook/retrofit/retrofit";

const index = CatalogSearchIndex.fromCatalog();

function sheet(rows: readonly (readonly (string | number | null)[])[]): GridSheet {
  const cells: GridCell[] = [];
  rows.forEach((row, r) =>
    row.forEach((v, c) => {
      if (v !== null) cells.push({ row: r + 1, col: c + 1, value: v, formula: false, format: "#,##0.0" });
    }),
  );
  return { name: "AAPL", cells, protected: false };
}

/** Services answering `values[name][year]`, recording each batch of calls fetched. */
function services(values: Record<string, Record<number, number>>) {
  const batches: FdqCall[][] = [];
  const s: RetrofitServices = {
    price: (calls) => Promise.resolve({ units: calls.length, shared: [] }),
    fetch: (calls) => {
      batches.push([...calls]);
      return Promise.resolve(calls.map((c) => values[String(c.args[2])]?.[Number(c.args[3])] ?? null));
    },
  };
  return { s, batches };
}

const REVENUE = { 2021: 20_100_000_000, 2022: 22_800_000_000, 2023: 25_239_479_689 };

describe("retrofit matching", () => {
  it("fetches the candidates at the latest number first, then only the match at the other periods", async () => {
    const plan = planRetrofit(
      [
        sheet([
          [null, "FY2021", "FY2022", "FY2023"],
          ["Revenue ($m)", 20_100, 22_800, 25_239.5],
        ]),
      ],
      {
        index,
      },
    );
    const { s, batches } = services({ REVENUE });
    const rows = await runRetrofit(plan, s);
    expect(batches.map((b) => b.map((c) => `${String(c.args[2])}:${String(c.args[3])}`))).toEqual([
      ["REVENUE:2023"],
      [],
      ["REVENUE:2022", "REVENUE:2021"],
    ]);
    expect(countRows(rows)).toEqual({ linked: 3, ambiguous: 0, notFound: 0, noDatapoint: 0 });
    expect(rows[2]?.formula).toBe('=FDQ.DATAPOINT("AAPL","screens/traditional","REVENUE",2023)/1000000');
    expect(rows[2]?.confidence).toBe("high");
  });

  it("prices the first look and the most the run can spend before fetching", async () => {
    const plan = planRetrofit(
      [
        sheet([
          [null, "FY2021", "FY2022", "FY2023"],
          ["Revenue", 20_100, 22_800, 25_239.5],
        ]),
      ],
      {
        index,
      },
    );
    const { s, batches } = services({ REVENUE });
    const candidates = plan.lines[0]?.candidates.length ?? 0;
    expect(await priceRetrofit(plan, s)).toEqual({ first: candidates, most: 2 * candidates + 2 });
    expect(batches).toEqual([]);
    // With the day's coverage list in every batch's estimate (nothing is cached before the run): counted once.
    const list = { id: "coverage/stock", units: 1 };
    const withList: RetrofitServices = {
      ...s,
      price: (calls) => Promise.resolve({ units: calls.length + 1, shared: [list] }),
    };
    expect(await priceRetrofit(plan, withList)).toEqual({
      first: 1 + candidates,
      most: 1 + 2 * candidates + 2,
    });
  });

  it("does not link a wrong number of a linked line, and reports FDQ's value beside it", async () => {
    const plan = planRetrofit(
      [
        sheet([
          [null, "FY2021", "FY2022", "FY2023"],
          ["Revenue ($m)", 20_100, 24_000, 25_239.5],
        ]),
      ],
      {
        index,
      },
    );
    const rows = await runRetrofit(plan, services({ REVENUE }).s);
    expect(rows.map((r) => r.status)).toEqual(["linked", "not found", "linked"]);
    expect(rows[1]?.fdqValue).toBeCloseTo(22_800, 6);
  });

  it("looks at the next number when the latest one matches nothing", async () => {
    const plan = planRetrofit(
      [
        sheet([
          [null, "FY2021", "FY2022", "FY2023"],
          ["Revenue ($m)", 20_100, 22_800, 99_999],
        ]),
      ],
      {
        index,
      },
    );
    const { s, batches } = services({ REVENUE });
    const rows = await runRetrofit(plan, s);
    expect(batches[1]?.map((c) => c.args[3])).toEqual([2022]);
    expect(rows.map((r) => r.status)).toEqual(["linked", "linked", "not found"]);
  });

  it("lists a line whose numbers several candidates match as ambiguous, with them, and fetches no more", async () => {
    const plan = planRetrofit(
      [
        sheet([
          [null, "FY2022", "FY2023"],
          ["Interest", 22_800, 25_239.5],
        ]),
      ],
      { index },
    );
    const names = plan.lines[0]?.candidates.map((c) => c.name) ?? [];
    expect(names.length).toBeGreaterThan(1);
    const { s, batches } = services(Object.fromEntries(names.map((n) => [n, REVENUE])));
    const rows = await runRetrofit(plan, s);
    expect(rows.map((r) => r.status)).toEqual(["ambiguous", "ambiguous"]);
    expect(rows[0]?.candidates?.length).toBe(names.length);
    expect(batches[2]).toEqual([]);
  });

  it("leaves numbers under labels that name no datapoint alone and fetches nothing for them", async () => {
    const plan = planRetrofit(
      [
        sheet([
          [null, "FY2022", "FY2023"],
          ["Headcount", 154, 161],
        ]),
      ],
      { index },
    );
    const { s, batches } = services({});
    const rows = await runRetrofit(plan, s);
    expect(rows.map((r) => r.status)).toEqual(["no datapoint", "no datapoint"]);
    expect(batches.flat()).toEqual([]);
  });

  it("stores a flipped, scaled formula as Excel stores an add-in's function", () => {
    const call: FdqCall = { name: "DATAPOINT", args: ["AAPL", "screens/traditional", "SALES_COST", 2023] };
    const match = {
      scale: { name: "thousands", factor: 1e-3, suffix: "/1000" },
      sign: -1,
      expected: -1,
      difference: 0,
      tolerance: 0.5,
    } as const;
    expect(storedFormulaOf(call, match)).toBe(
      '-_xldudf_FDQ_DATAPOINT("AAPL","screens/traditional","SALES_COST",2023)/1000',
    );
  });
});
