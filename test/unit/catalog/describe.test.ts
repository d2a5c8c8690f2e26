// Descriptions say what a suffix means where it stands (shared/spec/datapoint-catalogs.md): on a
// company's datapoints _Q_AVG and _YOY_AVG average its own values over time; on the sector endpoint
// _AVG, _MEDIAN and _WAVG run across the companies of the sector or industry.
import { DATASETS, SECTOR_DATAPOINTS, datapointMetadata, describeDatapoint } from "../../../src/catalog";

const companyNames = [...new Set(DATASETS.flatMap((d) => d.datapoints.map((p) => p.name)))];
const sectorNames = SECTOR_DATAPOINTS.map((s) => s.name);
const ACROSS_COMPANIES = /across (the )?(companies|members|sector|industry)|of the sector or industry/i;

describe("descriptions of company datapoints", () => {
  it("never speak of an aggregate across companies", () => {
    const wrong = companyNames.filter((name) => ACROSS_COMPANIES.test(describeDatapoint(name)));
    expect(wrong).toEqual([]);
  });

  it("call every _Q_AVG and _YOY_AVG an average over time", () => {
    const averages = companyNames.filter((name) => /_(Q|YOY)_AVG$/.test(name));
    expect(averages).toEqual([
      "CAPITAL_INVESTED_Q_AVG",
      "CAPITAL_INVESTED_YOY_AVG",
      "ROIC_CAPITAL_INVESTED_Q_AVG",
      "ROIC_CAPITAL_INVESTED_YOY_AVG",
    ]);
    for (const name of averages) {
      expect(describeDatapoint(name)).toMatch(/averaged over time/);
    }
    expect(describeDatapoint("CAPITAL_INVESTED_Q_AVG")).toBe(
      "Capital invested, averaged over time: the average of the last four quarters.",
    );
    expect(describeDatapoint("ROIC_CAPITAL_INVESTED_YOY_AVG")).toBe(
      "ROIC (return on invested capital) on capital invested, averaged over time: the average of the year-over-year beginning and ending values.",
    );
  });
});

describe("descriptions of sector and industry datapoints", () => {
  it("say that _AVG, _MEDIAN and _WAVG run across the companies of the sector or industry", () => {
    const aggregates = sectorNames.filter((name) => /_(AVG|MEDIAN|WAVG)$/.test(name));
    expect(aggregates).toHaveLength(38);
    for (const name of aggregates) {
      const description = describeDatapoint(name);
      expect(description).toMatch(/across the companies of the sector or industry\.$/);
      const kind = name.endsWith("_WAVG")
        ? "market-weighted average"
        : name.endsWith("_MEDIAN")
          ? "median"
          : "simple average";
      expect(description).toContain(`: ${kind} across`);
    }
    expect(describeDatapoint("ROIC_WAVG")).toBe(
      "ROIC (return on invested capital): market-weighted average across the companies of the sector or industry.",
    );
  });

  it("are the catalog's metadata descriptions", () => {
    for (const name of [...companyNames, ...sectorNames]) {
      expect(datapointMetadata().get(name)?.description).toBe(describeDatapoint(name));
    }
  });
});
