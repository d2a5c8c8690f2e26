// The cache as whole-cache parts on a plain key-value store: a meta record naming a generation and a count
// of parts `storageKey.gen.i`, each a JSON list of entries. Used where no RecordStore exists: in Excel only
// when IndexedDB is missing (OfficeRuntime.storage, about 5 M characters shared by every workbook's runtime,
// office-js#2901), and in tests on MemoryStorage. Every field of the meta is checked and bounded before any
// part is read or named (issue 13).
import { decodeValue } from "../cache-codec";
import type { KeyValueStore } from "../storage";
import type {
  CachePersistence,
  CacheSnapshot,
  LoadResult,
  LoadedEntry,
  PersistenceContext,
  SaveResult,
} from "./persistence";
import { DAY_LABEL } from "../vendor-clock";
import { adoptWindow, isPlainObject, metaProblem } from "./saved-meta";

/** 2: one entry per datapoint-records answer (1 had one entry per datapoint plus a list of names). */
const FORMAT_VERSION = 2;
const CHUNK_CHARS = 1_000_000;

interface StoreMeta {
  v: number;
  scope: string;
  day: string;
  gen: number;
  chunks: number;
  /** The writer's refresh-day window and clock key: a reader inside it knows the day without Intl. */
  clock?: string;
  from?: number;
  until?: number;
}

/** Where a store's parts are. */
type PartsRef = Pick<StoreMeta, "gen" | "chunks">;

export class PartsPersistence implements CachePersistence {
  readonly encodesAll = true;
  /** The parts the store's meta names now: removed once a new meta replaces it. */
  private storedParts: PartsRef | undefined;

  constructor(
    private readonly storage: KeyValueStore,
    private readonly storageKey: string,
    private readonly ctx: PersistenceContext,
  ) {}

  /** Most parts a store within the budget can have (an entry longer than a part takes one alone). */
  private get maxChunks(): number {
    return Math.ceil(this.ctx.maxChars / CHUNK_CHARS) + 1;
  }

  /** The parts a meta names, if its counts are within bounds: nothing else is ever named or removed. */
  private partsOf(m: unknown): PartsRef | undefined {
    if (!isPlainObject(m)) return undefined;
    const { gen, chunks } = m;
    return Number.isSafeInteger(gen) &&
      (gen as number) >= 0 &&
      Number.isInteger(chunks) &&
      (chunks as number) >= 0 &&
      (chunks as number) <= this.maxChunks
      ? { gen: gen as number, chunks: chunks as number }
      : undefined;
  }

  /** The meta's problem, worded for a warning, or undefined when it is sound. */
  private problemOf(m: unknown): string | undefined {
    if (!isPlainObject(m) || m.v !== FORMAT_VERSION) return "has an unknown format";
    const { scope, day, clock, from, until } = m;
    if (typeof scope !== "string" || typeof day !== "string") return "has an unknown format";
    if (!this.partsOf(m))
      return `names a part count out of bounds (${String(JSON.stringify(m.chunks)).slice(0, 20)})`;
    return metaProblem({ scope, day, clock, from, until }, this.ctx);
  }

  async load(): Promise<LoadResult | undefined> {
    const { storage, storageKey, ctx } = this;
    let meta: unknown;
    try {
      const text = await storage.get(storageKey);
      if (text === null || text === undefined) return undefined;
      if (text.length > 10_000) throw new Error("its record is too long");
      meta = JSON.parse(text);
    } catch (e) {
      ctx.warn(`The saved FDQ cache could not be read and was discarded (${(e as Error).message}).`);
      return undefined;
    }
    this.storedParts = this.partsOf(meta);
    // A discarded store's parts would hold storage quota forever: the next write replaces and removes them.
    const stale = { entries: [], stale: (this.storedParts?.chunks ?? 0) > 0 };
    const problem = this.problemOf(meta);
    if (problem) {
      ctx.warn(`The saved FDQ cache ${problem} and was discarded.`);
      return { entries: [], stale: true };
    }
    const m = meta as StoreMeta; // every field checked by problemOf
    const refused = adoptWindow(m, ctx);
    if (refused) ctx.warn(`The saved FDQ cache's day was not trusted: ${refused}.`);
    const today = ctx.today();
    // An earlier refresh day: stale by design, not an error; read only for the values of the day before.
    if (m.day !== today && !ctx.keep && !ctx.dropped) return stale;
    const entries: LoadedEntry[] = [];
    const gone: LoadedEntry[] = [];
    let chars = 0;
    try {
      for (let i = 0; i < m.chunks; i++) {
        const text = await storage.get(`${storageKey}.${m.gen}.${i}`);
        if (typeof text !== "string") throw new Error(`part ${i} is missing`);
        chars += text.length;
        if (chars > ctx.maxChars + 2 * m.chunks) throw new Error("its parts exceed the size bound");
        const items: unknown = JSON.parse(text);
        if (!Array.isArray(items)) throw new Error(`part ${i} is not a list`);
        for (const item of items) {
          const [rel, encoded, day] = Array.isArray(item) ? (item as unknown[]) : [];
          const value = typeof rel === "string" ? decodeValue(encoded, ctx.toValue) : undefined;
          if (typeof rel !== "string" || !value) throw new Error(`part ${i} holds an unreadable entry`);
          // An entry fetched before the store's day names its own day (only the saver keeps such entries).
          const fetched = day === undefined ? m.day : day;
          if (typeof fetched !== "string" || !DAY_LABEL.test(fetched) || fetched > m.day) {
            throw new Error(`part ${i} names an impossible day`);
          }
          if (fetched !== today && !ctx.keep?.(rel, value, fetched, today)) {
            if (ctx.dropped) gone.push({ rel, value, fetched });
            continue;
          }
          entries.push({ rel, value, fetched });
        }
      }
    } catch (e) {
      ctx.warn(`The saved FDQ cache is damaged and was discarded (${(e as Error).message}).`);
      return { entries: [], stale: true };
    }
    // Parts hold the least recently used first.
    if (gone.length > 0) ctx.dropped!(gone.reverse());
    // A refused window is replaced by the clock's own at the next save.
    return { entries, stale: m.day !== today || refused !== undefined };
  }

  /** Removes the meta record and the parts it names (after the cache moved to another store). */
  async removeAll(): Promise<void> {
    const old = this.storedParts;
    this.storedParts = undefined;
    const parts = old
      ? Array.from({ length: old.chunks }, (_, i) => `${this.storageKey}.${old.gen}.${i}`)
      : [];
    await Promise.all([...parts, this.storageKey].map((key) => this.storage.remove(key)));
  }

  async save(s: CacheSnapshot): Promise<SaveResult> {
    const { storage, storageKey, ctx } = this;
    const { chunks, entries } = this.encodeChunks(s);
    const gen = (this.storedParts?.gen ?? 0) + 1;
    // The old parts go first, so the store never holds two copies (OfficeRuntime.storage has no signal when
    // it is full, office-js#2901). A store interrupted half-way then names missing parts and is discarded
    // as damaged at the next load: only a cache is lost. The new parts go before the meta that names them;
    // each group is issued together, so a store can batch it.
    const old = this.storedParts;
    this.storedParts = undefined;
    if (old) {
      const parts = Array.from({ length: old.chunks }, (_, i) => `${storageKey}.${old.gen}.${i}`);
      await Promise.all(parts.map((key) => storage.remove(key)));
    }
    await Promise.all(chunks.map((chunk, i) => storage.set(`${storageKey}.${gen}.${i}`, chunk)));
    const { from, until } = ctx.clock.window();
    const meta: StoreMeta = {
      v: FORMAT_VERSION,
      scope: ctx.scope,
      day: s.day,
      gen,
      chunks: chunks.length,
      clock: ctx.clock.key,
      from,
      until,
    };
    await storage.set(storageKey, JSON.stringify(meta));
    this.storedParts = meta;
    return { entries, chars: chunks.reduce((n, c) => n + c.length, 0) };
  }

  /** The most recently used entries that fit the size budget, oldest first, in chunks of JSON arrays. */
  private encodeChunks(s: CacheSnapshot): { chunks: string[]; entries: number } {
    const kept: string[] = [];
    let chars = 0;
    for (const rel of s.keys()) {
      const encoded = s.encoded(rel);
      if (encoded === undefined) continue;
      // Under the saver an entry names the day it was fetched (it may outlive it).
      const fetched = this.ctx.keep ? s.fetched(rel) : undefined;
      const text = `[${JSON.stringify(rel)},${encoded}${fetched === undefined ? "" : `,${JSON.stringify(fetched)}`}]`;
      if (chars + text.length + 1 > this.ctx.maxChars) break;
      chars += text.length + 1;
      kept.push(text);
    }
    kept.reverse();
    const chunks: string[] = [];
    let current: string[] = [];
    let size = 0;
    for (const text of kept) {
      if (size + text.length > CHUNK_CHARS && current.length > 0) {
        chunks.push(`[${current.join(",")}]`);
        current = [];
        size = 0;
      }
      current.push(text);
      size += text.length + 1;
    }
    if (current.length > 0) chunks.push(`[${current.join(",")}]`);
    return { chunks, entries: kept.length };
  }
}
