// The one rule of "stale", for the task pane's "Only cells from an older refresh day" and `fdq refresh --only
// stale`: a cell whose value is not today's answer to its requests.
import { isStale, isTodaysAnswer } from "../../../src/workbook/refresh/staleness";

const TODAY = "2026-11-28";
const fetchedToday = { cached: true, fetchedOn: TODAY };
const keptFromYesterday = { cached: true, fetchedOn: "2026-11-27" };
const notCached = { cached: false };

describe("stale (src/workbook/refresh/staleness.ts)", () => {
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

  it("a cell that makes no request (its arguments are refused before one) is not stale", () => {
    expect(isStale({ answers: [] }, TODAY)).toBe(false);
  });
});
