// The previous refresh day's values, kept when the day cache drops them, so that a number can say whether the
// service restated it since (src/functions/impl/sourced.ts, "Restated since the day before"). At the day turn
// (in a running client, or at load where a saved cache holds an earlier day's answers) the day cache hands over
// the answers it drops; their datapoints' value texts, exactly as the service sent them, are kept here by request
// identity (the data request's path without a datapoint, so a dataset's whole answer and a single datapoint's
// meet; a sector request's path) and datapoint name. One day only: the latest day dropped; an older one goes.
// Kept in the cache's store under a record of its own per account (like the ledger and the period resolutions),
// merged under the store's lock, so every workbook and `fdq` run of the account reads the same day before. It
// reads only what the cache already held: it sends no request and spends no unit.
import { BatchedWrites } from "./batched-writes";
import type { CacheValue } from "./cache-codec";
import type { LoadedEntry } from "./cache-store/persistence";
import { isRecordStore, whenOpened } from "./cache-store/record-store";
import { pathWithoutDatapoint, RequestKey } from "./request-key";
import type { KeyValueStore } from "./storage";
import type { SectorRecord } from "./types";
import { DAY_MS } from "./refresh-day";
import { DAY_LABEL } from "./vendor-clock";

/** A datapoint's value on the previous refresh day: the service's text and that day. */
export interface PreviousValue {
  readonly day: string;
  readonly datavalue: string;
}

/**
 * Most characters the record may take in a plain key-value store: OfficeRuntime.storage, where IndexedDB cannot
 * be opened, holds about 5 M characters for every workbook of the domain, of which the day cache takes up to
 * 3.5 M (DEFAULTS.maxPersistChars); 1 M leaves room for the settings, the ledger and the period resolutions.
 */
export const MAX_PLAIN_STORE_CHARS = 1_000_000;

/** The identity of a request's answers: a data request without its datapoint, a sector request as it is. */
export function identityOf(key: RequestKey): string | undefined {
  const f = key.fields;
  if (f.endpoint === "sector") return key.path;
  if (f.endpoint !== "data") return undefined;
  return f.datapoint === undefined ? key.path : RequestKey.data(f.dataset, f.ticker, f.year, f.period).path;
}

/** One request's datapoints (name -> value text) and the length of its stored form. */
interface Group {
  readonly values: ReadonlyMap<string, string>;
  readonly chars: number;
}

/** `[identity, names, value texts]`, as stored. */
type StoredGroup = [string, string[], string[]];

const FORMAT_VERSION = 1;

/**
 * The datapoints of a dropped answer with a value: a data answer's records, a sector answer's record. Read from
 * the cache key's text (pathWithoutDatapoint), not parsed: a day turn reads every answer of the day.
 */
function datapointsOf(
  rel: string,
  value: CacheValue,
): { identity: string; names: string[]; values: string[] } | undefined {
  if (value.kind === "records") {
    const names: string[] = [];
    const values: string[] = [];
    for (let i = 0; i < value.size; i++) {
      const r = value.record(i);
      names.push(r.datapoint);
      values.push(r.datavalue);
    }
    return names.length > 0 ? { identity: pathWithoutDatapoint(rel), names, values } : undefined;
  }
  if (value.kind !== "json" || !rel.startsWith("sector/")) return undefined;
  const record = value.data as Partial<SectorRecord> | null;
  if (typeof record?.datapoint !== "string" || typeof record.datavalue !== "string") return undefined;
  return { identity: rel, names: [record.datapoint], values: [record.datavalue] };
}

/** A group as stored: `[identity, names, value texts]`. */
const groupText = (identity: string, values: ReadonlyMap<string, string>): string =>
  JSON.stringify([identity, [...values.keys()], [...values.values()]] satisfies StoredGroup);

const isStringList = (list: unknown, count: number): list is string[] =>
  Array.isArray(list) && list.length === count && list.every((s) => typeof s === "string");

export interface PreviousDayOptions {
  storage: KeyValueStore | undefined;
  /** Its own key in the store (one per account tag). */
  storageKey: string;
  /** The cache's scope: another account's or service's record is not read. */
  scope: string;
  /** Most characters the stored record may take (the map is cut to it in memory too). */
  maxChars: number;
  /** The clock: a stored day later than tomorrow's date is refused (it would hide every turn until then). */
  now: () => number;
  persistDelayMs: number;
  onWarning: (message: string) => void;
}

/** The bound of a store: the day cache's own budget where records are kept, MAX_PLAIN_STORE_CHARS in a plain store. */
export function previousDayBound(storage: KeyValueStore | undefined, maxPersistChars: number): number {
  return isRecordStore(storage) ? maxPersistChars : Math.min(maxPersistChars, MAX_PLAIN_STORE_CHARS);
}

export class PreviousDayValues {
  /** The day the values are of; undefined before any is known. */
  private day: string | undefined;
  /** Identity -> its datapoints, in the order kept first under the bound. */
  private groups = new Map<string, Group>();
  /** Characters of the stored groups, without the envelope and the commas between them. */
  private chars = 0;
  /** The stored record's characters besides its groups (set with the day). */
  private envelopeChars = 0;
  /** The stored record's text, read at load and parsed only when first needed (a warm run may never need it). */
  private unread: string | undefined;
  private dirty = false;
  private storage: KeyValueStore | undefined;
  private readonly writes: BatchedWrites;
  readonly ready: Promise<void>;

  constructor(private readonly o: PreviousDayOptions) {
    this.storage = o.storage;
    this.writes = new BatchedWrites(
      o.persistDelayMs,
      () => this.write(),
      (e) => o.onWarning(`The FDQ values of the day before could not be saved (${e.message}).`),
    );
    this.ready = this.load();
  }

  /** The value of datapoint `name` of `key`'s answer on the kept day, when that day is before `today`. */
  get(key: RequestKey, name: string, today: string): PreviousValue | undefined {
    this.parseUnread();
    const day = this.day;
    if (day === undefined || day >= today) return undefined;
    const identity = identityOf(key);
    const datavalue = identity === undefined ? undefined : this.groups.get(identity)?.values.get(name);
    return datavalue === undefined ? undefined : { day, datavalue };
  }

  /**
   * Answers the day cache drops because their refresh day is over, the ones to keep first (most recently used)
   * first. Only the latest day's are kept: a later day replaces the map, an earlier one is ignored.
   */
  dropped(entries: readonly LoadedEntry[]): void {
    if (entries.length === 0) return;
    this.parseUnread();
    let latest = this.day ?? "";
    for (const e of entries) if (e.fetched > latest) latest = e.fetched;
    // One request's answers gathered first (single datapoints of one dataset, ticker and period are one group),
    // then put once each: a day of 22,500 single answers then costs one merge per request, not per answer.
    const gathered = new Map<string, { names: string[]; values: string[] }>();
    for (const { rel, value, fetched } of entries) {
      if (fetched !== latest) continue;
      const found = datapointsOf(rel, value);
      if (!found) continue;
      const group = gathered.get(found.identity);
      if (!group) gathered.set(found.identity, found);
      else
        for (let i = 0; i < found.names.length; i++) {
          group.names.push(found.names[i]!);
          group.values.push(found.values[i]!);
        }
    }
    if (gathered.size === 0) return;
    if (latest !== this.day) this.reset(latest);
    // The turn's own values win over those read from the store for the same day.
    for (const [identity, { names, values }] of gathered) this.put(identity, names, values, true);
    this.markDirty();
  }

  async flush(): Promise<void> {
    await this.ready;
    if (this.writes.scheduled) await this.writes.now();
    await this.writes.settled();
  }

  private reset(day: string): void {
    this.day = day;
    this.groups = new Map();
    this.chars = 0;
    this.envelopeChars = this.envelope([]).length;
  }

  /**
   * Puts datapoints into the group of `identity` (replacing the values it holds with `replace`, else adding only
   * the names it lacks) if the record still fits the bound with them; else the group stays as it was. Whether
   * anything changed.
   */
  private put(identity: string, names: string[], values: string[], replace: boolean): boolean {
    const old = this.groups.get(identity);
    const merged = new Map(old?.values);
    let changed = false;
    for (let i = 0; i < names.length; i++) {
      if (!replace && merged.has(names[i]!)) continue;
      if (merged.get(names[i]!) !== values[i]) changed = true;
      merged.set(names[i]!, values[i]!);
    }
    if (!changed) return false;
    const chars = groupText(identity, merged).length;
    const others = this.chars - (old?.chars ?? 0);
    const commas = this.groups.size - (old ? 1 : 0);
    // The record with it: the envelope, every group and a comma between two.
    if (this.envelopeChars + others + chars + commas > this.o.maxChars) return false;
    this.groups.set(identity, { values: merged, chars });
    this.chars = others + chars;
    return true;
  }

  private envelope(groups: string[]): string {
    return `{"v":${FORMAT_VERSION},"scope":${JSON.stringify(this.o.scope)},"day":${JSON.stringify(this.day ?? "")},"e":[${groups.join(",")}]}`;
  }

  private markDirty(): void {
    this.dirty = true;
    if (this.storage) this.writes.schedule();
  }

  private async load(): Promise<void> {
    // Read after the day cache's first read, which its constructor starts in this same turn: a store that fails
    // its first read (a damaged CLI file) is then reported by the cache, in the words of what was lost.
    await Promise.resolve();
    const opening = whenOpened(this.o.storage);
    if (opening) this.storage = (await opening).store;
    if (!this.storage) return;
    try {
      const text = await this.storage.get(this.o.storageKey);
      if (typeof text === "string") this.unread = text;
    } catch (e) {
      this.o.onWarning(`The FDQ values of the day before could not be read (${(e as Error).message}).`);
    }
    // Dropped while loading: merged with the stored ones by the same rule once they are read.
    if (this.day !== undefined) this.parseUnread();
  }

  /** Merges the stored record read at load into the map (after what was dropped meanwhile). */
  private parseUnread(): void {
    const text = this.unread;
    if (text === undefined) return;
    this.unread = undefined;
    this.merge(text);
  }

  /**
   * Adds a stored record's groups: a later day replaces the map, the same day adds the groups not held yet
   * (while they fit), an earlier day is ignored. A record that fails its checks is ignored as a whole.
   */
  private merge(text: string | null | undefined): void {
    const stored = this.parse(text);
    if (!stored) return;
    if (this.day !== undefined && stored.day < this.day) return;
    if (this.day === undefined || stored.day > this.day) this.reset(stored.day);
    for (const [identity, names, values] of stored.e) this.put(identity, names, values, false);
  }

  private parse(text: string | null | undefined): { day: string; e: StoredGroup[] } | undefined {
    if (typeof text !== "string" || text.length > this.o.maxChars) return undefined;
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (typeof o !== "object" || o === null) return undefined;
    const { v, scope, day, e } = o as Record<string, unknown>;
    if (v !== FORMAT_VERSION || scope !== this.o.scope || typeof day !== "string" || !DAY_LABEL.test(day))
      return undefined;
    if (day > new Date(this.o.now() + DAY_MS).toISOString().slice(0, 10)) return undefined;
    if (!Array.isArray(e)) return undefined;
    const groups: StoredGroup[] = [];
    for (const g of e) {
      if (!Array.isArray(g) || g.length !== 3 || typeof g[0] !== "string") return undefined;
      const names: unknown = g[1];
      if (!Array.isArray(names) || !isStringList(names, names.length) || !isStringList(g[2], names.length))
        return undefined;
      groups.push([g[0], names, g[2]]);
    }
    return { day, e: groups };
  }

  private serialize(): string {
    const groups: string[] = [];
    for (const [identity, g] of this.groups) groups.push(groupText(identity, g.values));
    return this.envelope(groups);
  }

  /** Merges with what the store holds now (another workbook's or run's turn) and writes the result. */
  private async write(): Promise<void> {
    await this.ready;
    const storage = this.storage;
    if (!storage || !this.dirty) return;
    this.dirty = false;
    const apply = (old: string | null | undefined): string => {
      this.merge(old);
      return this.serialize();
    };
    try {
      if (isRecordStore(storage)) await storage.update(this.o.storageKey, (old) => apply(old));
      else await storage.set(this.o.storageKey, apply(await storage.get(this.o.storageKey)));
    } catch (e) {
      this.dirty = true;
      throw e;
    }
  }
}
