// A store in one JSON file of key -> string, replaced atomically (atomic-file.ts), for one writer (the
// gateway's usage.json); the CLI's cache, which concurrent runs share, is cache-store/file-record-store.ts.
// Changes made together (in the same turn of the event loop, or while a write is under way) share one
// rewrite, so a burst of changes rewrites the whole file once.
import { readFileSync } from "node:fs";
import { writeFileAtomic } from "./atomic-file";
import type { KeyValueStore } from "./storage";

export class FileStorage implements KeyValueStore {
  private items: Map<string, string> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** The rewrite that has not started yet: later changes join it. */
  private next: Promise<void> | undefined;

  constructor(readonly file: string) {}

  /**
   * A file that is not a JSON object of strings throws once (so the caller can warn) and then counts as
   * empty: the next write replaces it.
   */
  async get(key: string): Promise<string | null> {
    return (await this.load()).get(key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    (await this.loadForWrite()).set(key, value);
    await this.save();
  }

  async remove(key: string): Promise<void> {
    const items = await this.loadForWrite();
    if (items.delete(key)) await this.save();
  }

  private async load(): Promise<Map<string, string>> {
    if (this.items) return this.items;
    let text: string;
    try {
      // Read once per store: synchronously it costs a third of the CPU of fs.promises.readFile (which
      // reads in chunks through the thread pool), and the CLI has nothing else to do until it is read.
      text = readFileSync(this.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return (this.items = new Map());
      throw e;
    }
    this.items = new Map();
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${this.file} does not hold a JSON object`);
    }
    for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") this.items.set(k, v);
    return this.items;
  }

  private async loadForWrite(): Promise<Map<string, string>> {
    try {
      return await this.load();
    } catch {
      // load() has already reset the items to empty; the write below replaces the unreadable file.
      return (this.items ??= new Map());
    }
  }

  private save(): Promise<void> {
    if (this.next) return this.next;
    const next = this.writing
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        this.next = undefined;
        const text = JSON.stringify(Object.fromEntries(this.items ?? []));
        await writeFileAtomic(this.file, text, { makeFolder: { mode: 0o777 } });
      });
    this.next = next;
    this.writing = next.catch(() => undefined);
    return next;
  }
}
