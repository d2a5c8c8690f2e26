// The cache's warnings as the pane shows them: a store that could not be read or saved, a cache shrunk
// because the store was full (IndexedDB's quota; OfficeRuntime.storage gives no signal at all,
// office-js#2901). Before this list the pane showed none of them: the cache failed silently.
import type { ClientEvent } from "../../api";

export interface CacheWarning {
  readonly message: string;
  /** How many times it was reported since it was first shown. */
  readonly count: number;
}

/** Most warnings kept: a store that fails on every write repeats one message, counted instead. */
export const MAX_CACHE_WARNINGS = 3;

/** The list after event `e`: the newest last, a repeated message counted, at most MAX_CACHE_WARNINGS. */
export function addCacheWarning(list: readonly CacheWarning[], e: ClientEvent): readonly CacheWarning[] {
  if (e.type !== "cache-warning") return list;
  const same = list.find((w) => w.message === e.message);
  const rest = list.filter((w) => w !== same);
  return [...rest, { message: e.message, count: (same?.count ?? 0) + 1 }].slice(-MAX_CACHE_WARNINGS);
}
