import { MemoryStorage } from "../../../src/api";
import {
  DEFAULT_VALUE_OPTIONS,
  MAX_CARD_METRICS,
  VALUE_OPTIONS_KEY,
  loadValueOptions,
  parseValueOptions,
  saveValueOptions,
} from "../../../src/functions/value-options";

describe("value options", () => {
  it("are off and empty when nothing is stored", async () => {
    expect(await loadValueOptions(new MemoryStorage())).toEqual(DEFAULT_VALUE_OPTIONS);
    expect(DEFAULT_VALUE_OPTIONS).toEqual({ withSource: false, cardMetrics: [] });
  });

  it("read back what was saved, under their one key", async () => {
    const storage = new MemoryStorage();
    const options = { withSource: true, cardMetrics: [{ dataset: "roic", name: "ROIC", period: "FY0" }] };
    await saveValueOptions(storage, options);
    expect(storage.items.has(VALUE_OPTIONS_KEY)).toBe(true);
    expect(await loadValueOptions(storage)).toEqual(options);
  });

  it("fall back field by field: unreadable text, a wrong flag, and metrics missing a part are dropped", () => {
    expect(parseValueOptions("{not json")).toEqual(DEFAULT_VALUE_OPTIONS);
    expect(parseValueOptions("[1,2]")).toEqual(DEFAULT_VALUE_OPTIONS);
    const stored = JSON.stringify({
      withSource: "yes",
      cardMetrics: [
        { dataset: "roic", name: "ROIC", period: "FY0", extra: 1 },
        { dataset: "roic", name: "" },
        7,
      ],
    });
    expect(parseValueOptions(stored)).toEqual({
      withSource: false,
      cardMetrics: [{ dataset: "roic", name: "ROIC", period: "FY0" }],
    });
  });

  it(`keep at most ${MAX_CARD_METRICS} card metrics`, () => {
    const many = Array.from({ length: MAX_CARD_METRICS + 3 }, (_, i) => ({
      dataset: "d",
      name: `N${i}`,
      period: "FY0",
    }));
    expect(parseValueOptions(JSON.stringify({ cardMetrics: many })).cardMetrics).toHaveLength(
      MAX_CARD_METRICS,
    );
  });
});
