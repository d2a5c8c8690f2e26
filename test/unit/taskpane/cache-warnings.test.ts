// The pane's list of cache warnings: newest last, a repeated message counted once, at most three kept.
import { MAX_CACHE_WARNINGS, addCacheWarning } from "../../../src/taskpane/logic/cache-warnings";

const warning = (message: string) => ({ type: "cache-warning" as const, message });

describe("cache warnings in the pane", () => {
  it("keeps the newest warnings, counting repeats, and ignores other events", () => {
    let list = addCacheWarning([], warning("full"));
    list = addCacheWarning(list, { type: "cache-persisted", entries: 1, chars: 10 });
    list = addCacheWarning(list, warning("unreadable"));
    list = addCacheWarning(list, warning("full"));
    expect(list).toEqual([
      { message: "unreadable", count: 1 },
      { message: "full", count: 2 },
    ]);
    for (const m of ["a", "b", "c"]) list = addCacheWarning(list, warning(m));
    expect(list.map((w) => w.message)).toEqual(["a", "b", "c"]);
    expect(list).toHaveLength(MAX_CACHE_WARNINGS);
  });
});
