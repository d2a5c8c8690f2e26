// `fdq search` run as a process (bin/fdq.js, as `npx fdq` runs it). The search is offline: no sandbox.
import { runFdq, type Run } from "./run-fdq";

const fdqSearch = (args: string[]): Promise<Run> => runFdq(["search", ...args]);

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

describe("fdq search", () => {
  it("prints one datapoint per line, best first: name, dataset, sign role, description", async () => {
    const out = await fdqSearch(["return", "on", "invested", "capital", "--limit", "3"]);
    expect(out.code).toBe(0);
    expect(lines(out.stdout)).toEqual([
      "ROIC                   metrics/roic      standalone  ROIC (return on invested capital).",
      "ROIC                   screens/enhanced  standalone  ROIC (return on invested capital).",
      "ROIC_CAPITAL_INVESTED  metrics/roic      standalone  ROIC (return on invested capital) on capital invested.",
    ]);
    expect(out.stderr).toBe("3 of 20 matching datapoints shown; --limit N shows more.\n");
  });

  it("shows a walk's sign roles", async () => {
    const out = await fdqSearch(["economic book value", "--dataset", "metrics/ebv", "--limit", "2"]);
    expect(lines(out.stdout)).toEqual([
      "BOOK_VALUE_ECONOMIC          metrics/ebv  = result      Book value economic.",
      "ESO_TRANCHE_VALUE_AFTER_TAX  metrics/ebv  - subtracted  Employee stock option tranche value after tax.",
    ]);
  });

  it("--json prints an array of {name, dataset, sign, description}", async () => {
    const out = await fdqSearch(["economic book value", "--json"]);
    expect(out.code).toBe(0);
    const hits = JSON.parse(out.stdout) as Record<string, unknown>[];
    expect(hits.slice(0, 2)).toEqual([
      { name: "BOOK_VALUE_ECONOMIC", dataset: "metrics/ebv", sign: "=", description: "Book value economic." },
      {
        name: "BOOK_VALUE_ECONOMIC",
        dataset: "screens/enhanced",
        sign: "",
        description: "Book value economic.",
      },
    ]);
    expect(hits).toHaveLength(16);
    for (const h of hits) expect(Object.keys(h)).toEqual(["name", "dataset", "sign", "description"]);
  });

  it("--limit caps the datapoints printed", async () => {
    const out = await fdqSearch(["capital", "--limit", "1", "--json"]);
    expect((JSON.parse(out.stdout) as { name: string }[]).map((h) => h.name)).toEqual(["CAPITAL_INVESTED"]);
  });

  it("--dataset keeps one dataset, named by its path or its last part", async () => {
    const byPath = await fdqSearch(["nopat", "--dataset", "metrics/roic", "--json"]);
    const bySlug = await fdqSearch(["nopat", "--dataset", "ROIC", "--json"]);
    const hits = JSON.parse(byPath.stdout) as { name: string; dataset: string }[];
    expect(hits.map((h) => h.name)).toEqual(["NOPAT", "NOPAT_GROSS", "NOPAT_GAAP", "ROGIC"]);
    expect(new Set(hits.map((h) => h.dataset))).toEqual(new Set(["metrics/roic"]));
    expect(bySlug.stdout).toBe(byPath.stdout);
  });

  it("prints nothing and says so on stderr when nothing matches, exit 0", async () => {
    expect(await fdqSearch(["zzz"])).toEqual({ code: 0, stdout: "", stderr: "No datapoint matches.\n" });
  });

  it("is a usage error (exit 2) for an unknown dataset, naming the closest and every dataset", async () => {
    const out = await fdqSearch(["roic", "--dataset", "metrics/roci"]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(
      /^fdq: --dataset "metrics\/roci" is not a dataset\. Did you mean metrics\/roic/,
    );
    expect(out.stderr).toContain("Datasets: reconciliation/core-earnings-to-net-income,");
    expect(out.stderr).toContain("fundamentals/reported.\n");
  });

  it("is a usage error (exit 2) without a query or with a bad --limit", async () => {
    const none = await fdqSearch([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^fdq: no query given/);
    const limit = await fdqSearch(["roic", "--limit", "0"]);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toMatch(/^fdq: --limit must be a whole number of 1 or more, not "0"\./);
  });
});
