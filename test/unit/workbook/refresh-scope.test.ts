// The one rule of "stale", for the task pane's "Only cells from an older refresh day" and `fdq refresh --only
// stale`: a cell whose value is not today's answer to its requests.
import { ExcelError } from "../../../src/workbook/model";
import {
  FILTER_PHRASES,
  isStale,
  isTodaysAnswer,
  showsError,
  showsValue,
} from "../../../src/workbook/changes/refresh-scope";

const TODAY = "2026-11-28";
const fetchedToday = { cached: true, fetchedOn: TODAY };
const keptFromYesterday = { cached: true, fetchedOn: "2026-11-27" };
const notCached = { cached: false };

describe("stale (src/workbook/changes/refresh-scope.ts)", () => {
  it("a request has today's answer when the cache answers it with an answer fetched today", () => {
    expect(isTodaysAnswer(fetchedToday, TODAY)).toBe(true);
    expect(isTodaysAnswer({ cached: true }, TODAY)).toBe(true);
  });

  it("an answer the quota saver kept from an earlier refresh day is not today's", () => {
    expect(isTodaysAnswer(keptFromYesterday, TODAY)).toBe(false);
    expect(isStale({ answers: [fetchedToday, keptFromYesterday] }, TODAY)).toBe(true);
  });

  it("a cell with a request the cache does not answer is stale", () => {
    expect(isTodaysAnswer(notCached, TODAY)).toBe(false);
    expect(isStale({ answers: [fetchedToday, notCached], showsTodaysValue: true }, TODAY)).toBe(true);
  });

  it("a cell whose requests all have today's answer but that shows another value is stale", () => {
    expect(isStale({ answers: [fetchedToday], showsTodaysValue: false }, TODAY)).toBe(true);
  });

  it("a cell whose requests all have today's answer and that shows it (or was not compared) is current", () => {
    expect(isStale({ answers: [fetchedToday], showsTodaysValue: true }, TODAY)).toBe(false);
    expect(isStale({ answers: [fetchedToday] }, TODAY)).toBe(false);
  });

  it("a cell shows today's value when they agree to 15 significant digits, or are both errors", () => {
    expect(showsValue(0.1 + 0.2, 0.3)).toBe(true);
    expect(showsValue(0.25, 0.26)).toBe(false);
    expect(showsValue("#N/A", new ExcelError("#N/A"))).toBe(true);
    expect(showsValue("#VALUE!", new ExcelError("#N/A"))).toBe(true);
    expect(showsValue("AAPL", "AAPL")).toBe(true);
  });

  it("a cell showing an error does not show an empty answer, and one showing a value does not show an error", () => {
    expect(showsValue("#N/A", null)).toBe(false);
    expect(showsValue(0.25, new ExcelError("#N/A"))).toBe(false);
  });

  it("a cell is in error when it shows an Excel error, as the file stores it or as Office reads it", () => {
    expect(showsError(new ExcelError("#DIV/0!"))).toBe(true);
    expect(showsError("#GETTING_DATA")).toBe(true);
    expect(showsError("#n/a")).toBe(false);
    expect(showsError("N/A")).toBe(false);
    expect(showsError(0)).toBe(false);
  });

  it("names each filter in a sentence's middle the same way on both surfaces", () => {
    expect(`Refreshed 4 FDQ cells${FILTER_PHRASES.errors}`).toBe("Refreshed 4 FDQ cells in error");
    expect(`Refreshed 4 FDQ cells${FILTER_PHRASES.stale}`).toBe(
      "Refreshed 4 FDQ cells from an older refresh day",
    );
  });

  it("a cell that makes no request (its arguments are refused before one) is not stale", () => {
    expect(isStale({ answers: [] }, TODAY)).toBe(false);
  });
});
