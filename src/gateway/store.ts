// The gateway's embedded store: one refresh day's answers per account tag, in memory (an LRU bounded by
// bytes) and on disk under the store directory (one file per answer, so a restart keeps the day), and
// the usage ledgers of the accounts. Nothing here holds an API key: answers are filed under the account
// tag (a one-way hash) and the request's serialised RequestKey, named as keys.ts says.
//
// Layout: DIR/answers/<refresh day>/<account tag>/<sha256 of the key>.json, DIR/usage.json. Days other than
// the current one are removed when the day turns (old days go first); the memory LRU drops the least used.
// With --redis, RedisAnswerStore (redis-store.ts) shares the answers and keeps this store as its local tier.
import { promises as fs } from "node:fs";
import path from "node:path";
import { LRUCache } from "lru-cache";
import { DAY_LABEL } from "../api";
import { writeFileAtomic } from "../api/node";
import { ANSWERS_FOLDER, answerFile, localName, type AnswerKey } from "./keys";

/** An upstream answer worth keeping: status, content type and body text. */
export interface StoredAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface AnswerStore {
  get(key: AnswerKey): Promise<StoredAnswer | undefined>;
  set(key: AnswerKey, answer: StoredAnswer): Promise<void>;
  /** Forgets every day before `day`. */
  dropBefore(day: string): Promise<void>;
}

const isAnswer = (o: unknown): o is StoredAnswer & { key: string } => {
  const a = o as Partial<StoredAnswer & { key: string }>;
  return (
    typeof a === "object" &&
    a !== null &&
    typeof a.status === "number" &&
    typeof a.contentType === "string" &&
    typeof a.body === "string" &&
    typeof a.key === "string"
  );
};

export interface EmbeddedStoreOptions {
  /** Directory of the persisted answers; undefined keeps them in memory only. */
  dir: string | undefined;
  /** Bytes of answers kept in memory. */
  maxMemoryBytes: number;
  onWarning: (message: string) => void;
}

/** An answer in memory, with the day it belongs to (so that a day's turn drops it). */
interface Kept {
  readonly day: string;
  readonly answer: StoredAnswer;
}

export class EmbeddedStore implements AnswerStore {
  private readonly memory: LRUCache<string, Kept>;
  private writing = new Set<Promise<void>>();

  constructor(private readonly o: EmbeddedStoreOptions) {
    this.memory = new LRUCache<string, Kept>({
      maxSize: o.maxMemoryBytes,
      sizeCalculation: ({ answer: a }) => Math.max(1, a.body.length * 2 + a.contentType.length + 64),
    });
  }

  private answerFile(key: AnswerKey): string | undefined {
    const parts = this.o.dir === undefined ? undefined : answerFile(key);
    return parts && path.join(this.o.dir!, ...parts);
  }

  async get(key: AnswerKey): Promise<StoredAnswer | undefined> {
    const id = localName(key);
    const hit = this.memory.get(id);
    if (hit) return hit.answer;
    const file = this.answerFile(key);
    if (file === undefined) return undefined;
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch {
      return undefined;
    }
    try {
      const o: unknown = JSON.parse(text);
      // The request is stored beside the answer: a hash collision or a foreign file is a miss.
      if (!isAnswer(o) || o.key !== key.request) return undefined;
      const answer: StoredAnswer = { status: o.status, contentType: o.contentType, body: o.body };
      this.memory.set(id, { day: key.day, answer });
      return answer;
    } catch {
      return undefined;
    }
  }

  async set(key: AnswerKey, answer: StoredAnswer): Promise<void> {
    this.memory.set(localName(key), { day: key.day, answer });
    const file = this.answerFile(key);
    if (file === undefined) return;
    const write = (async () => {
      await writeFileAtomic(file, JSON.stringify({ key: key.request, ...answer }), {
        makeFolder: { mode: 0o700 },
      });
    })().catch((e: unknown) => {
      this.o.onWarning(`fdq serve: an answer could not be saved (${(e as Error).message}).`);
    });
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
    await write;
  }

  async dropBefore(day: string): Promise<void> {
    for (const [id, kept] of [...this.memory.entries()]) if (kept.day < day) this.memory.delete(id);
    if (this.o.dir === undefined) return;
    const root = path.join(this.o.dir, ANSWERS_FOLDER);
    let days: string[];
    try {
      days = await fs.readdir(root);
    } catch {
      return;
    }
    for (const d of days) {
      if (DAY_LABEL.test(d) && d < day) await fs.rm(path.join(root, d), { recursive: true, force: true });
    }
  }

  /** Waits for the answers being written. */
  async flush(): Promise<void> {
    await Promise.all([...this.writing]);
  }
}
