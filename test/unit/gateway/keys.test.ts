// The gateway's one keyed format (src/gateway/keys.ts): one structured key, written as each place keeps it,
// and every text the one an earlier version wrote, so its store directory and its Redis are still read.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { answerFile, answerKey, ledgerStorageKey, localName } from "../../../src/gateway/keys";
import { RedisKeyParts } from "../../../src/gateway/redis-keys";
import { EmbeddedStore } from "../../../src/gateway/store";

const SECRET = "s".repeat(32);
const DAY = "2024-03-15";
const TAG = "0b026dcaf52dd2d7";
const REQUEST = "metrics/roic/AAPL?datapoint=ROIC&year=2023";
const KEY = answerKey(DAY, TAG, REQUEST);

describe("Redis names", () => {
  // Written by the previous version's RedisKeyParts.answer/flight/landed/slots/ledger with the same secret.
  const request = "01369a2d60bb47bfd4e8843bb5e938e1";
  const account = "510340baa7f64a2eeb4e4ca53f02fd23";
  const names = new RedisKeyParts(SECRET);

  it("are the names the previous version wrote, for every kind", () => {
    expect(names.name({ kind: "answer", ...KEY })).toBe(`fdq:gw:answer:${DAY}:${account}:${request}`);
    expect(names.name({ kind: "flight", ...KEY })).toBe(`fdq:gw:flight:${DAY}:${account}:${request}`);
    expect(names.name({ kind: "landed", ...KEY, flight: "f-1" })).toBe(
      `fdq:gw:landed:${DAY}:${account}:${request}:f-1`,
    );
    expect(names.name({ kind: "slots", tag: TAG })).toBe(`fdq:gw:slots:${account}`);
    expect(names.name({ kind: "ledger", tag: TAG, month: "2024-03" })).toBe(
      `fdq:gw:ledger:${account}:2024-03`,
    );
  });

  it("hold neither the request nor the tag, and differ under another secret", () => {
    const name = names.name({ kind: "answer", ...KEY });
    expect(name).not.toContain("AAPL");
    expect(name).not.toContain(TAG);
    expect(new RedisKeyParts("t".repeat(32)).name({ kind: "answer", ...KEY })).not.toBe(name);
  });
});

describe("the embedded store's names", () => {
  it("files an answer under answers/<day>/<tag>/<sha256 of the request>.json", () => {
    const sha = createHash("sha256").update(REQUEST).digest("hex");
    expect(answerFile(KEY)).toEqual(["answers", DAY, TAG, `${sha}.json`]);
  });

  it("files nothing for a day or a tag that could not be a safe folder name", () => {
    expect(answerFile(answerKey("../etc", TAG, REQUEST))).toBeUndefined();
    expect(answerFile(answerKey(DAY, "../x", REQUEST))).toBeUndefined();
  });

  it("names each request of each account and day apart in memory", () => {
    const names = [
      KEY,
      answerKey("2024-03-16", TAG, REQUEST),
      answerKey(DAY, "ff", REQUEST),
      answerKey(DAY, TAG, "ratings/component/AAPL"),
    ].map(localName);
    expect(new Set(names).size).toBe(4);
  });

  it("keeps the ledger where the previous version did", () => {
    expect(ledgerStorageKey(TAG)).toBe(`fdq.usage.${TAG}`);
  });

  it("reads an answer file the previous version wrote, and ignores one holding another request", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "fdq-keys-"));
    const folder = path.join(dir, "answers", DAY, TAG);
    mkdirSync(folder, { recursive: true });
    const file = (request: string) =>
      path.join(folder, `${createHash("sha256").update(request).digest("hex")}.json`);
    const answer = { status: 200, contentType: "application/json", body: '{"results":[]}' };
    writeFileSync(file(REQUEST), JSON.stringify({ key: REQUEST, ...answer }));
    const other = "ratings/component/MSFT";
    writeFileSync(file(other), JSON.stringify({ key: REQUEST, ...answer }));
    const store = new EmbeddedStore({ dir, maxMemoryBytes: 1 << 20, onWarning: () => undefined });
    expect(await store.get(KEY)).toEqual(answer);
    expect(await store.get(answerKey(DAY, TAG, other))).toBeUndefined();
  });

  it("drops the days before the current one, from memory and disk", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "fdq-keys-"));
    const store = new EmbeddedStore({ dir, maxMemoryBytes: 1 << 20, onWarning: () => undefined });
    const answer = { status: 200, contentType: "application/json", body: "{}" };
    await store.set(KEY, answer);
    const next = answerKey("2024-03-16", TAG, REQUEST);
    await store.set(next, answer);
    await store.dropBefore("2024-03-16");
    const fresh = new EmbeddedStore({ dir, maxMemoryBytes: 1 << 20, onWarning: () => undefined });
    expect(await store.get(KEY)).toBeUndefined();
    expect(await fresh.get(KEY)).toBeUndefined();
    expect(await fresh.get(next)).toEqual(answer);
  });
});
