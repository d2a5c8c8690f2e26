// The catalog is checked against shared/spec/datapoint-catalogs.md itself, so the data cannot drift from it.
// Those checks need the spec folder beside the repository (test/support/spec-docs.ts); the others run anywhere.
import {
  CATEGORY_LEGEND,
  DATASETS,
  SECTOR_DATAPOINTS,
  datapointMetadata,
  findDatapoint,
  findDataset,
  findSectorDatapoint,
} from "../../../src/catalog";
import { describeWithSpec, readSpec } from "../../support/spec-docs";

const catalogSpec = (): string => readSpec("datapoint-catalogs.md");

interface SpecLine {
  name: string;
  sign: string;
  sp: boolean;
  category?: string | null;
}

/** The code block under each "### /path" heading of the catalog document. */
function specBlocks(): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const section of catalogSpec().split(/^### /m).slice(1)) {
    const title = section.split("\n")[0]?.trim() ?? "";
    const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
    if (title.startsWith("/") && block !== undefined) blocks.set(title.slice(1), block);
  }
  return blocks;
}

/** Parses a dataset block into datapoints, expanding the sum-count _INCREASE/_DECREASE bases. */
function parseDatasetBlock(block: string): SpecLine[] {
  const out: SpecLine[] = [];
  let inGroup = false;
  for (const raw of block.split("\n").filter((l) => l.trim() !== "")) {
    if (/^(Hidden|Reported) group/.test(raw)) {
      inGroup = true;
      continue;
    }
    if (inGroup && /^ {2}\S/.test(raw)) {
      const base = raw.trim();
      out.push(
        { name: `${base}_INCREASE`, sign: "+", sp: false },
        { name: `${base}_DECREASE`, sign: "-", sp: false },
      );
      continue;
    }
    inGroup = false;
    let text = raw.trim();
    let sign = "";
    const signed = /^([+\-=/]) (.*)$/.exec(text);
    if (signed) {
      sign = signed[1] ?? "";
      text = signed[2] ?? "";
    }
    let category: string | null | undefined;
    if (text.includes("|")) {
      const [name, cat] = text.split("|").map((s) => s.trim());
      text = name ?? "";
      category = cat !== undefined && /^[A-Z]+$/.test(cat) ? cat : null;
    }
    const sp = text.endsWith("(SP)");
    const name = text.replace(/\s*\(SP\)$/, "");
    out.push(category === undefined ? { name, sign, sp } : { name, sign, sp, category });
  }
  return out;
}

/** Expands the sector block's comma lists and {AVG|MEDIAN|WAVG} notation, group by group. */
function parseSectorGroups(): Map<string, string[]> {
  const sectorSection = catalogSpec().split(/^### \/sector/m)[1] ?? "";
  const groups = new Map<string, string[]>();
  const re = /^Group ([ABC])[^\n]*\n\n```\n([\s\S]*?)```/gm;
  for (const m of sectorSection.matchAll(re)) {
    const names: string[] = [];
    for (const line of (m[2] ?? "").split("\n")) {
      if (line.trim() === "" || line.includes(" is not in this list")) continue;
      for (const item of line.replace(/\s*\(.*\)\s*$/, "").split(",")) {
        const name = item.trim();
        if (name.includes("{AVG|MEDIAN|WAVG}")) {
          for (const s of ["AVG", "MEDIAN", "WAVG"]) names.push(name.replace("{AVG|MEDIAN|WAVG}", s));
        } else if (name !== "") names.push(name);
      }
    }
    groups.set(m[1] ?? "", names);
  }
  return groups;
}

describeWithSpec("datasets, against the spec documents", () => {
  const blocks = specBlocks();

  it("has exactly the 16 endpoint datasets of the service spec, in its table order", () => {
    const specPaths = [
      ...readSpec("service-spec.md").matchAll(
        /^\| \/((?:reconciliation|metrics|screens|fundamentals)\/[a-z-]+)\/:ticker \|/gm,
      ),
    ].map((m) => m[1]);
    expect(specPaths).toHaveLength(16);
    expect(DATASETS.map((d) => d.path)).toEqual(specPaths);
  });

  it.each([...blocks.keys()].filter((k) => !k.startsWith("sector")))(
    "%s lists the spec's datapoints in catalog order with signs, (SP) flags and categories",
    (path) => {
      const dataset = findDataset(path);
      expect(dataset).toBeDefined();
      const listed = (dataset?.datapoints ?? [])
        .filter((p) => !p.unlisted)
        .map((p) => ({
          name: p.name,
          sign: p.sign,
          sp: p.sp === true,
          ...(p.category !== undefined ? { category: p.category } : {}),
        }));
      expect(listed).toEqual(parseDatasetBlock(blocks.get(path) ?? ""));
    },
  );

  it("marks exactly the datasets whose list the spec cuts off as not shown", () => {
    const cutOff = DATASETS.filter((d) => d.notShown !== undefined).map((d) => d.path);
    expect(cutOff).toEqual([
      "reconciliation/core-earnings-to-net-income",
      "reconciliation/net-income-to-nopat-detailed-sum-count",
      "fundamentals/adjusted",
      "fundamentals/reported",
    ]);
    const spec = catalogSpec();
    for (const d of DATASETS.filter((x) => x.notShown !== undefined)) expect(spec).toContain(d.notShown);
  });
});

describe("datasets", () => {
  it("keeps NOPAT, which the sum-count dataset returns in all-datapoints mode, as an unlisted last entry", () => {
    const d = findDataset("net-income-to-nopat-detailed-sum-count");
    expect(d?.datapoints.at(-1)).toEqual({ name: "NOPAT", sign: "", unlisted: true });
    expect(d?.datapoints.filter((p) => p.name.endsWith("_INCREASE"))).toHaveLength(16);
  });

  it("documents filingtype for exactly the datasets of spec rule 4", () => {
    const without = DATASETS.filter((d) => !d.hasFilingType).map((d) => d.slug);
    expect(without.sort()).toEqual(
      [
        "core-earnings-to-net-income",
        "net-income-to-core-earnings",
        "net-income-to-nopat-detailed",
        "net-income-to-nopat-detailed-sum-count",
        "reported",
      ].sort(),
    );
  });

  it("documents all-datapoints mode for every dataset except the fundamentals", () => {
    expect(DATASETS.filter((d) => !d.allDatapointsMode).map((d) => d.path)).toEqual([
      "fundamentals/adjusted",
      "fundamentals/reported",
    ]);
  });

  it("uses only the legend's category codes, with null only for the cut-off EQUITY_EQUIVALENTS", () => {
    for (const d of DATASETS.filter((x) => x.group === "fundamentals")) {
      for (const p of d.datapoints) {
        if (p.category === null) expect(p.name).toBe("EQUITY_EQUIVALENTS");
        else expect(Object.keys(CATEGORY_LEGEND)).toContain(p.category);
      }
    }
  });

  it("names a total that exists in the same dataset, listed before its parts, for every part", () => {
    for (const d of DATASETS) {
      d.datapoints.forEach((p, i) => {
        if (p.partOf === undefined) return;
        const totalIndex = d.datapoints.findIndex((q) => q.name === p.partOf);
        expect([d.path, p.name, totalIndex >= 0 && totalIndex < i]).toEqual([d.path, p.name, true]);
      });
    }
  });

  it("gives every walk dataset results that are datapoints of that dataset", () => {
    for (const d of DATASETS.filter((x) => x.walk)) {
      for (const r of d.walk?.results ?? []) expect(findDatapoint(d, r)?.name).toBe(r);
    }
  });
});

describe("findDataset", () => {
  it("accepts the full path, its last part, any case, and a /v1/ prefix", () => {
    expect(findDataset("metrics/roic")?.path).toBe("metrics/roic");
    expect(findDataset("ROIC")?.path).toBe("metrics/roic");
    expect(findDataset("/v1/Fundamentals/Reported/")?.path).toBe("fundamentals/reported");
    expect(findDataset("market-value-to-ev")?.group).toBe("reconciliation");
  });

  it("has a unique last part for each dataset", () => {
    expect(new Set(DATASETS.map((d) => d.slug)).size).toBe(DATASETS.length);
  });

  it("returns undefined for an unknown dataset", () => {
    expect(findDataset("metrics/nope")).toBeUndefined();
  });
});

describeWithSpec("sector datapoints, against the spec documents", () => {
  const groups = parseSectorGroups();

  it.each([
    ["A", "none", []],
    ["B", "current", [0]],
    ["C", "all", [0, 1, 2, 3, 4, 5]],
  ] as const)(
    "group %s of the spec is the %s availability group with prior years %j",
    (letter, group, years) => {
      const ours = SECTOR_DATAPOINTS.filter((s) => s.group === group);
      expect(ours.map((s) => s.name)).toEqual(groups.get(letter));
      for (const s of ours) expect(s.priorYears).toEqual(years);
    },
  );
});

describe("sector datapoints", () => {
  it("expands {AVG|MEDIAN|WAVG} into three names", () => {
    expect(findSectorDatapoint("ROIC_MEDIAN")?.group).toBe("all");
    expect(findSectorDatapoint("ROIC_{AVG|MEDIAN|WAVG}")).toBeUndefined();
  });

  it("marks CATEGORY_TYPE and MODEL_DATE as text", () => {
    expect(SECTOR_DATAPOINTS.filter((s) => s.text).map((s) => s.name)).toEqual([
      "CATEGORY_TYPE",
      "MODEL_DATE",
    ]);
  });
});

describe("datapoint metadata", () => {
  it("has one record per distinct name across datasets and the sector endpoint", () => {
    const names = new Set([
      ...DATASETS.flatMap((d) => d.datapoints.map((p) => p.name)),
      ...SECTOR_DATAPOINTS.map((s) => s.name),
    ]);
    expect(datapointMetadata().size).toBe(names.size);
  });

  it("lists every dataset a name appears in", () => {
    const roic = datapointMetadata().get("ROIC");
    expect(roic?.endpoints).toBe("metrics/roic, screens/enhanced");
    expect(datapointMetadata().get("NOPAT")?.endpoints.split(", ")).toContain("sector");
  });

  it("carries the spec's own words where it describes a datapoint", () => {
    expect(datapointMetadata().get("CASH_TAX_RATE")?.description).toContain(
      "Effective tax rate on recurring operations.",
    );
  });
});
