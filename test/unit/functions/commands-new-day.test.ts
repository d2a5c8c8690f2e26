import { refreshIfNewDay, type NewDayDeps } from "../../../src/commands/new-day";

function deps(saved: string | undefined, today: string, formulas = true) {
  const log: string[] = [];
  const d: NewDayDeps = {
    lastCalculatedDay: async () => saved,
    saveCalculatedDay: async (day) => {
      log.push(`save ${day}`);
    },
    today: () => today,
    calculateFull: async () => {
      log.push("calculate full");
    },
    hasFdqFormulas: async () => formulas,
  };
  return { d, log };
}

describe("the runtime's new-refresh-day check at document open", () => {
  it("runs one full calculation when the workbook was last calculated on an earlier refresh day", async () => {
    const { d, log } = deps("2024-03-01", "2024-03-04");
    expect(await refreshIfNewDay(d)).toBe("recalculated");
    expect(log).toEqual(["calculate full", "save 2024-03-04"]);
  });

  it("treats a workbook never calculated by the add-in as due", async () => {
    const { d, log } = deps(undefined, "2024-03-04");
    expect(await refreshIfNewDay(d)).toBe("recalculated");
    expect(log).toEqual(["calculate full", "save 2024-03-04"]);
  });

  it("does nothing on the same refresh day (the saved values are today's)", async () => {
    const { d, log } = deps("2024-03-04", "2024-03-04");
    expect(await refreshIfNewDay(d)).toBe("current");
    expect(log).toEqual([]);
  });

  it("does not recalculate a workbook without FDQ formulas, only records the day", async () => {
    const { d, log } = deps("2024-03-01", "2024-03-04", false);
    expect(await refreshIfNewDay(d)).toBe("no-formulas");
    expect(log).toEqual(["save 2024-03-04"]);
  });
});
