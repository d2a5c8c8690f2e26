// The decision of the runtime's new-day check: refresh a workbook opened on a later refresh day than the one it
// was last calculated on (kept in the workbook's settings), unless the pane's setting is off or it is empty.
import { refreshIfNewDay, type NewDayDeps } from "../../../src/taskpane/logic/new-day";

function deps(
  saved: string | undefined,
  today: string,
  options: { formulas?: boolean; auto?: boolean; finishes?: boolean } = {},
) {
  const log: string[] = [];
  const d: NewDayDeps = {
    autoRefresh: async () => options.auto ?? true,
    lastCalculatedDay: async () => saved,
    saveCalculatedDay: async (day) => void log.push(`save ${day}`),
    today: () => today,
    hasFdqFormulas: async () => options.formulas ?? true,
    refresh: async (reason) => {
      log.push(`refresh (${reason})`);
      return options.finishes ?? true;
    },
  };
  return { d, log };
}

describe("the runtime's new-refresh-day check", () => {
  it("refreshes once when the workbook was last calculated on an earlier refresh day", async () => {
    const { d, log } = deps("2024-03-01", "2024-03-04");
    expect(await refreshIfNewDay(d)).toBe("refreshed");
    // The refresh run records the day itself: the check does not save it a second time.
    expect(log).toEqual(["refresh (new refresh day 2024-03-04)"]);
  });

  it("treats a workbook never calculated by the add-in as due", async () => {
    const { d, log } = deps(undefined, "2024-03-04");
    expect(await refreshIfNewDay(d)).toBe("refreshed");
    expect(log).toEqual(["refresh (new refresh day 2024-03-04)"]);
  });

  it("does nothing on the same refresh day (the saved values are today's)", async () => {
    const { d, log } = deps("2024-03-04", "2024-03-04");
    expect(await refreshIfNewDay(d)).toBe("current");
    expect(log).toEqual([]);
  });

  it("does nothing when the pane's 'refresh on a new refresh day' setting is off, and records no day", async () => {
    const { d, log } = deps("2024-03-01", "2024-03-04", { auto: false });
    expect(await refreshIfNewDay(d)).toBe("off");
    expect(log).toEqual([]);
  });

  it("does not refresh a workbook without FDQ formulas, only records the day", async () => {
    const { d, log } = deps("2024-03-01", "2024-03-04", { formulas: false });
    expect(await refreshIfNewDay(d)).toBe("no-formulas");
    expect(log).toEqual(["save 2024-03-04"]);
  });

  it("says so when the refresh did not finish (the next check tries again)", async () => {
    const { d, log } = deps("2024-03-04", "2024-03-05", { finishes: false });
    expect(await refreshIfNewDay(d)).toBe("failed");
    expect(log).toEqual(["refresh (new refresh day 2024-03-05)"]);
  });
});
