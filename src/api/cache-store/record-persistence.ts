// The cache as one record per answer on a RecordStore (IndexedDB in Excel, the CLI's locked file): a save
// sends only the answers set and removed since the last one, so the answers another workbook or another
// `fdq` run stored meanwhile stay (issues 12 and 13). Every record is checked before it is used; a damaged
// one is dropped alone. A save the store refuses (IndexedDB's QuotaExceededError, a full disk) shrinks the
// stored cache by its oldest half and is tried once more, and the cache says so (the pane shows it).
import { decodeValue } from "../cache-codec";
import type {
  CachePersistence,
  CacheSnapshot,
  LoadResult,
  LoadedEntry,
  PersistenceContext,
  SaveResult,
} from "./persistence";
import { DAY_LABEL } from "../vendor-clock";
import type { PartsPersistence } from "./parts-persistence";
import type { RecordChange, RecordStore } from "./record-store";
import { adoptWindow, isPlainObject, metaProblem } from "./saved-meta";
import { DAY_MS } from "../refresh-day";

/** 3: one record per answer, `[encoded value, fetched day, written at ms]`. */
const FORMAT_VERSION = 3;

/** A record as loaded: the entry, when it was written, its store key and its length. */
interface Loaded extends LoadedEntry {
  at: number;
  key: string;
  chars: number;
}

export class RecordPersistence implements CachePersistence {
  readonly encodesAll = false;
  /** `storageKey \n scope \n`: a newline cannot occur in a base URL, so no scope's prefix holds another's. */
  private readonly prefix: string;
  private readonly metaKey: string;
  private readonly entryPrefix: string;
  /**
   * Stored records this cache knows of, oldest first: what a shrink removes first. Built from the loaded
   * records at the first save (`known()`): a warm run that saves nothing never builds it.
   */
  private knownSet: Set<string> | undefined;
  /** The loaded records' store keys, oldest first, until `known()` takes them over. */
  private loadedKeys: readonly string[] = [];
  /** Records to remove at the next save (an earlier day's, damaged ones, over the budget). */
  private pendingRemoves = new Set<string>();
  /** The stored cache failed its checks: the next save replaces all of it. */
  private discard = false;
  /** The stored meta's window was refused: the next save replaces it even if no answer changes. */
  private metaStale = false;
  /** An earlier day's records met by the load in progress, for `ctx.dropped`. */
  private gone: Loaded[] | undefined;
  /** The cache was imported from the legacy store: the next save puts every entry, then empties that store. */
  private imported: PartsPersistence | undefined;

  constructor(
    private readonly store: RecordStore,
    storageKey: string,
    private readonly ctx: PersistenceContext,
    /** The parts an earlier version saved in the store's legacy store, read when this store has nothing. */
    private readonly legacy?: PartsPersistence,
  ) {
    this.prefix = `${storageKey}\n${ctx.scope}\n`;
    this.metaKey = `${this.prefix}meta`;
    this.entryPrefix = `${this.prefix}e:`;
  }

  private metaIssue(text: string): string | undefined {
    if (text.length > 10_000) return "has a meta record that is too long";
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch {
      return "has a meta record that is not JSON";
    }
    if (!isPlainObject(m) || m.v !== FORMAT_VERSION) return "has an unknown format";
    const { scope, day, clock, from, until } = m;
    if (typeof scope !== "string" || typeof day !== "string") return "has an unknown format";
    const meta = { scope, day, clock, from, until };
    const problem = metaProblem(meta, this.ctx);
    if (problem) return problem;
    const refused = adoptWindow(meta, this.ctx);
    if (refused) {
      this.ctx.warn(`The saved FDQ cache's day was not trusted: ${refused}.`);
      this.metaStale = true; // the next save writes the clock's own window
    }
    return undefined;
  }

  async load(): Promise<LoadResult | undefined> {
    const { ctx } = this;
    let records: [string, string][];
    try {
      records = await this.store.list(this.prefix);
    } catch (e) {
      ctx.warn(`The saved FDQ cache could not be read and was discarded (${(e as Error).message}).`);
      this.discard = true;
      return undefined;
    }
    if (records.length === 0) return this.importLegacy();
    // In key order "meta" follows every "e:" entry: usually the last record, found without a scan.
    const last = records[records.length - 1]!;
    const metaText = last[0] === this.metaKey ? last[1] : records.find(([k]) => k === this.metaKey)?.[1];
    const problem = metaText === undefined ? "has no meta record" : this.metaIssue(metaText);
    if (problem) {
      ctx.warn(`The saved FDQ cache ${problem} and was discarded.`);
      this.discard = true;
      return { entries: [], stale: true };
    }
    const today = ctx.today();
    const now = ctx.now();
    // One object per record, handed on as the loaded entry (a warm run loads thousands before its first cell).
    const loaded: Loaded[] = [];
    let damaged = 0;
    let chars = 0;
    let ordered = true;
    this.gone = ctx.dropped && [];
    // Indexed, not destructured: this loop runs once per stored answer in a process whose code is still cold.
    for (let r = 0; r < records.length; r++) {
      const record = records[r]!;
      const key = record[0];
      if (!key.startsWith(this.entryPrefix)) continue;
      const entry = this.decode(key, record[1], today, now);
      if (entry === "damaged") damaged++;
      if (typeof entry !== "object") {
        this.pendingRemoves.add(key);
        continue;
      }
      if (ordered && loaded.length > 0 && loaded[loaded.length - 1]!.at > entry.at) ordered = false;
      loaded.push(entry);
      chars += entry.chars;
    }
    const gone = this.gone;
    this.gone = undefined;
    if (gone && gone.length > 0) ctx.dropped!(gone.sort((a, b) => b.at - a.at)); // the newest first
    if (damaged > 0) {
      ctx.warn(
        `The saved FDQ cache held ${damaged} damaged ${damaged === 1 ? "entry" : "entries"}, discarded.`,
      );
    }
    // Stable: records written at the same time keep the store's order. Usually sorted already (one save).
    if (!ordered) loaded.sort((a, b) => a.at - b.at);
    // Over the budget (several writers each add their day): the oldest go at the next save.
    let first = 0;
    while (chars > ctx.maxChars && first < loaded.length) {
      const e = loaded[first++]!;
      chars -= e.chars;
      this.pendingRemoves.add(e.key);
    }
    const kept = first === 0 ? loaded : loaded.slice(first);
    const keys = new Array<string>(kept.length);
    for (let i = 0; i < kept.length; i++) keys[i] = kept[i]!.key;
    this.loadedKeys = keys;
    return { entries: kept, stale: this.pendingRemoves.size > 0 || this.metaStale };
  }

  /** The legacy store's cache (checked and bounded as always), to be written here at the next save. */
  private async importLegacy(): Promise<LoadResult | undefined> {
    if (!this.legacy) return undefined;
    const result = await this.legacy.load();
    if (!result) return undefined;
    this.imported = this.legacy;
    return { entries: result.entries, stale: true };
  }

  /** One record: the entry, "gone" for an earlier day's answer the policy drops, "damaged" otherwise. */
  private decode(key: string, text: string, today: string, now: number): Loaded | "gone" | "damaged" {
    if (text.length > this.ctx.maxChars) return "damaged";
    let item: unknown;
    try {
      item = JSON.parse(text);
    } catch {
      return "damaged";
    }
    if (!Array.isArray(item) || item.length !== 3) return "damaged";
    // Indexed rather than destructured: array destructuring runs the iterator protocol, which costs a fresh
    // process milliseconds per function that does it thousands of times (once per stored answer here).
    const encoded: unknown = item[0];
    const fetched: unknown = item[1];
    const at: unknown = item[2];
    if (typeof fetched !== "string") return "damaged";
    // Today's answers (nearly all) share one day string instead of keeping one parsed copy each.
    const day = fetched === today ? today : fetched;
    if (day !== today && (!DAY_LABEL.test(day) || day > today)) return "damaged";
    if (typeof at !== "number" || !Number.isFinite(at) || at > now + DAY_MS) return "damaged";
    const value = decodeValue(encoded, this.ctx.toValue);
    if (!value) return "damaged";
    const rel = key.slice(this.entryPrefix.length);
    if (day !== today && !this.ctx.keep?.(rel, value, day, today)) {
      this.gone?.push({ rel, value, fetched: day, at, key, chars: text.length });
      return "gone";
    }
    return { rel, value, fetched: day, at, key, chars: text.length };
  }

  async save(s: CacheSnapshot): Promise<SaveResult> {
    const { ctx } = this;
    const replaceAll = s.cleared || this.discard;
    const now = ctx.now();
    const puts = new Map<string, string>();
    let chars = 0;
    const put = (rel: string): void => {
      const encoded = s.encoded(rel);
      const fetched = s.fetched(rel);
      if (encoded === undefined || fetched === undefined) return;
      const text = `[${encoded},${JSON.stringify(fetched)},${now}]`;
      if (text.length > ctx.maxChars) return; // an answer bigger than the whole budget is not kept
      puts.set(`${this.entryPrefix}${rel}`, text);
      chars += text.length;
    };
    if (replaceAll || this.imported) for (const rel of s.keys()) put(rel);
    else for (const rel of s.changed) put(rel);
    const { from, until } = ctx.clock.window();
    const meta = { v: FORMAT_VERSION, scope: ctx.scope, day: s.day, clock: ctx.clock.key, from, until };
    puts.set(this.metaKey, JSON.stringify(meta));
    const removes = [...this.pendingRemoves, ...[...s.removed].map((rel) => `${this.entryPrefix}${rel}`)];
    const change: RecordChange = replaceAll
      ? { removePrefix: this.prefix, removes: [], puts }
      : { removes: removes.filter((k) => !puts.has(k)), puts };
    await this.commitOrShrink(change);
    this.pendingRemoves = new Set();
    this.discard = false;
    this.metaStale = false;
    const imported = this.imported;
    this.imported = undefined;
    // Frees the shared OfficeRuntime.storage (office-js#2901); a failure only leaves a copy behind.
    await imported?.removeAll().catch(() => undefined);
    const known = this.known();
    if (replaceAll) known.clear();
    for (const k of change.removes) known.delete(k);
    for (const k of puts.keys()) {
      if (k === this.metaKey) continue;
      known.delete(k); // re-inserted last: now the newest
      known.add(k);
    }
    return { entries: puts.size - 1, chars };
  }

  /** The stored records this cache knows of, oldest first (the loaded ones, then those saved since). */
  private known(): Set<string> {
    if (!this.knownSet) {
      this.knownSet = new Set();
      for (const key of this.loadedKeys) this.knownSet.add(key);
      this.loadedKeys = [];
    }
    return this.knownSet;
  }

  /** Commits; when the store refuses, removes the oldest half of the records this cache knows and tries once more. */
  private async commitOrShrink(change: RecordChange): Promise<void> {
    try {
      await this.store.commit(change);
      return;
    } catch (first) {
      const known = this.known();
      const oldest = [...known].filter((k) => !change.puts.has(k));
      const evict = oldest.slice(0, Math.ceil(oldest.length / 2));
      if (evict.length === 0) throw first;
      try {
        await this.store.commit({ removes: evict, puts: new Map() });
        await this.store.commit(change);
      } catch {
        throw first;
      }
      for (const k of evict) known.delete(k);
      this.ctx.warn(
        `The FDQ cache was full (${(first as Error).message}): its ${evict.length} oldest ${evict.length === 1 ? "answer was" : "answers were"} removed to save the new ones.`,
      );
    }
  }
}
