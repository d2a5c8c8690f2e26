// The CLI's cache store: one JSON file of key -> string per account, shared by concurrent `fdq` runs.
// Each write takes a lock on the file (proper-lockfile: a lock directory created atomically, with stale
// detection, the lock npm's own tools use), reads the file again, applies only this run's changes (merge
// on write), writes a temporary file and renames it over the old one. So a run never overwrites what
// another run wrote meanwhile, and a later run needs no request for what either fetched (issue 13).
// A temporary file is removed on any failure (EPERM, ENOSPC, a directory in the way), and a file larger
// than the bound is refused before it is read, so a damaged or hostile file cannot make a run allocate
// gigabytes.
import { promises as fs, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { lock } from "proper-lockfile";
import { isTempOf, writeFileAtomic } from "../atomic-file";
import { prefixEnd, type RecordChange, type RecordStore } from "./record-store";

type Items = Map<string, string>;

/** Locks older than this are taken over: a run killed while writing must not block the next ones. */
const STALE_LOCK_MS = 10_000;

export class FileRecordStore implements RecordStore {
  readonly kind = "records";
  /**
   * The file as read for `get` and `list` (a run's load). Dropped once this store rewrites the file: every
   * rewrite reads the file again under the lock anyway, and the texts of every answer need not stay in
   * memory beside the day cache's decoded answers (a later `get` reads the file again).
   */
  private items: Items | undefined;
  /** Changes waiting for the next rewrite: those made in one turn of the event loop share it. */
  private pending: { apply: (items: Items) => void; done: (error?: unknown) => void }[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    /** Largest file read; a larger one counts as damaged (it is replaced by the next write). */
    private readonly maxBytes: number,
  ) {}

  /**
   * The file's records. A damaged, oversized or unreadable file throws once (so the caller warns) and
   * then counts as empty.
   */
  private snapshot(): Items {
    if (this.items) return this.items;
    this.items = new Map();
    this.items = this.read();
    return this.items;
  }

  /** Reads and checks the file: an object of strings, no larger than maxBytes; anything else throws. */
  private read(): Items {
    let size: number;
    try {
      size = statSync(this.file).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return new Map();
      throw e;
    }
    if (size > this.maxBytes) throw new Error(`${this.file} is larger than ${this.maxBytes} bytes`);
    // Synchronously: a third of the CPU of fs.promises.readFile, and the CLI waits for it anyway. Read as
    // bytes, then decoded: on Node 20 a third less CPU than readFileSync(file, "utf8") for a megabyte file.
    const parsed: unknown = JSON.parse(readFileSync(this.file).toString("utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${this.file} does not hold a JSON object`);
    }
    const items: Items = new Map();
    // Keys and a look-up rather than Object.entries: one pair array fewer per record (a warm run reads them all).
    const record = parsed as Record<string, unknown>;
    for (const k of Object.keys(record)) {
      const v = record[k];
      if (typeof v !== "string") throw new Error(`${this.file} holds a record that is not a text`);
      items.set(k, v);
    }
    return items;
  }

  async get(key: string): Promise<string | null> {
    return this.snapshot().get(key) ?? null;
  }

  async list(prefix: string): Promise<[string, string][]> {
    const end = prefixEnd(prefix);
    const items = this.snapshot();
    const keys: string[] = [];
    for (const k of items.keys()) if (k >= prefix && k < end) keys.push(k);
    // The default sort orders strings by UTF-16 code units, as `<` does, without a comparator call per step.
    return keys.sort().map((k) => [k, items.get(k)!]);
  }

  set(key: string, value: string): Promise<void> {
    return this.commit({ removes: [], puts: new Map([[key, value]]) });
  }

  remove(key: string): Promise<void> {
    return this.commit({ removes: [key], puts: new Map() });
  }

  commit(change: RecordChange): Promise<void> {
    return this.enqueue((items) => {
      if (change.removePrefix !== undefined) {
        const end = prefixEnd(change.removePrefix);
        for (const k of [...items.keys()]) if (k >= change.removePrefix && k < end) items.delete(k);
      }
      for (const k of change.removes) items.delete(k);
      for (const [k, v] of change.puts) items.set(k, v);
    });
  }

  update(key: string, fn: (old: string | undefined) => string | undefined): Promise<void> {
    return this.enqueue((items) => {
      const next = fn(items.get(key));
      if (next === undefined) items.delete(key);
      else items.set(key, next);
    });
  }

  private enqueue(apply: (items: Items) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const first = this.pending.length === 0;
      this.pending.push({ apply, done: (e) => (e === undefined ? resolve() : reject(e as Error)) });
      if (!first) return;
      this.writing = this.writing
        .then(() => new Promise<void>((r) => setImmediate(r)))
        .then(() => this.rewrite());
    });
  }

  /** Under the lock: the file as it is now, with every pending change applied, written back. */
  private async rewrite(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    let error: unknown;
    try {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      const release = await lock(this.file, {
        realpath: false, // the file need not exist yet
        stale: STALE_LOCK_MS,
        retries: { retries: 200, factor: 1.3, minTimeout: 5, maxTimeout: 100 },
        // proper-lockfile throws from a timer by default when the lock is taken over (this run stalled past
        // STALE_LOCK_MS): that would crash a run over a cache. The worst then is one run's answers lost.
        onCompromised: () => undefined,
      });
      try {
        let items: Items;
        try {
          items = this.read();
        } catch {
          items = new Map(); // damaged: reported when it was first read, replaced now
        }
        for (const change of batch) change.apply(items);
        await this.replace(items);
        this.items = undefined;
      } finally {
        // Once the file is replaced the write has happened: a lock that cannot be released (already taken
        // over as stale) must not report it failed, or the ledger would count its units again.
        await release().catch(() => undefined);
      }
    } catch (e) {
      error = e;
    }
    for (const change of batch) change.done(error);
  }

  /**
   * Writes a temporary file beside the target and renames it over; the temporary file never outlives a
   * failure. The JSON object is written in pieces of about 64 KB: the whole text at once would be one more
   * copy of every answer (and its UTF-8 bytes another) at the moment the cache is largest.
   */
  private async replace(items: Items): Promise<void> {
    await this.removeStaleTemps();
    await writeFileAtomic(this.file, jsonObjectPieces(items));
  }

  /** Temporary files of this cache file left by a killed run: under the lock nobody else is writing one. */
  private async removeStaleTemps(): Promise<void> {
    const dir = path.dirname(this.file);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((n) => isTempOf(this.file, n))
        .map((n) => fs.rm(path.join(dir, n), { force: true }).catch(() => undefined)),
    );
  }
}

/** The text of JSON.stringify(Object.fromEntries(items)), in pieces of about 64 KB (made as they are written). */
function* jsonObjectPieces(items: Items): Generator<string> {
  let piece = "{";
  let first = true;
  for (const [key, value] of items) {
    piece += `${first ? "" : ","}${JSON.stringify(key)}:${JSON.stringify(value)}`;
    first = false;
    if (piece.length >= 65_536) {
      yield piece;
      piece = "";
    }
  }
  yield `${piece}}`;
}
