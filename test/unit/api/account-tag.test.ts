// The account tag names a key's cache file, ledger and cache scope without the key: SHA-256, 16 hex digits.
import { createHash } from "node:crypto";
import { accountTag } from "../../../src/api/account-tag";

const sha256Tag = (key: string): string =>
  createHash("sha256").update(key, "utf8").digest("hex").slice(0, 16);

describe("accountTag", () => {
  it("is the first 16 hex digits of the key's SHA-256, for each key in turn (the last one is remembered)", () => {
    for (const key of ["key-one", "key-one", "key-two", "key-one", "ключ", ""]) {
      expect(accountTag(key)).toBe(sha256Tag(key));
    }
    expect(accountTag("key-one")).not.toBe(accountTag("key-two"));
  });
});
