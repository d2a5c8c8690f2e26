import { MemoryStorage } from "../../../src/api";
import type { Change } from "../../../src/workbook/changes/changes";
import {
  ChangeHistory,
  HISTORY_KEY,
  MAX_CHARS,
  MAX_LISTED,
  MAX_REPORTS,
  makeReport,
} from "../../../src/taskpane/logic/change-history";

const change = (i: number): Change => ({
  sheet: "Model",
  cell: `A${i + 1}`,
  formula: `=FDQ.DATAPOINT("AAPL","roic","ROIC",${2000 + (i % 20)})`,
  old: i,
  new: i + 1,
  kind: "restated",
  relativeChange: i === 0 ? null : 1 / i,
});

const report = (at: number, n: number, workbook = "https://x/Book.xlsx") =>
  makeReport(
    { at, day: "2026-11-24", scope: "workbook", reason: "on request", cancelled: false, workbook },
    Array.from({ length: n }, (_, i) => change(i)),
  );

describe("the kept change reports", () => {
  it("keeps the newest reports of this workbook first, at most MAX_REPORTS", async () => {
    const storage = new MemoryStorage();
    const history = new ChangeHistory(storage);
    for (let i = 0; i < MAX_REPORTS + 2; i++) await history.add(report(i, 3));
    await history.add(report(100, 1, "https://x/Other.xlsx"));
    const mine = await history.of("https://x/Book.xlsx");
    expect(mine.map((r) => r.at)).toEqual([6, 5, 4, 3]);
    expect((await history.all()).length).toBe(MAX_REPORTS);
    expect((await history.of("https://x/Other.xlsx"))[0]?.counts.restated).toBe(1);
  });

  it("lists at most MAX_LISTED changes of a report but counts them all, and stays under MAX_CHARS", async () => {
    const storage = new MemoryStorage();
    const history = new ChangeHistory(storage);
    for (let i = 0; i < MAX_REPORTS; i++) await history.add(report(i, 5_000));
    const [newest] = await history.all();
    expect(newest?.total).toBe(5_000);
    expect(newest?.counts.restated).toBe(5_000);
    expect(newest?.changes.length).toBeLessThanOrEqual(MAX_LISTED);
    expect(((await storage.get(HISTORY_KEY)) ?? "").length).toBeLessThanOrEqual(MAX_CHARS);
  });

  it("reads a damaged record as no reports", async () => {
    const storage = new MemoryStorage();
    await storage.set(HISTORY_KEY, "{not json");
    expect(await new ChangeHistory(storage).all()).toEqual([]);
  });
});
