// writeFileAtomic and beginAtomicWrite (src/api/atomic-file.ts): a file is replaced whole or not at all, keeps
// its permissions, and no temporary file outlives a write.
import { mkdtempSync, promises as fs, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { beginAtomicWrite, isTempOf, writeFileAtomic } from "../../../src/api/atomic-file";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "fdq-atomic-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe("writeFileAtomic", () => {
  it("a new file holds the text, is private (0600) and leaves no temporary file beside it", async () => {
    const file = path.join(dir, "usage.json");
    await writeFileAtomic(file, '{"a":"1"}');
    expect(await fs.readFile(file, "utf8")).toBe('{"a":"1"}');
    expect(modeOf(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["usage.json"]);
  });

  it("an existing file is replaced whole and keeps its own permissions", async () => {
    const file = path.join(dir, "cache.json");
    writeFileSync(file, "old old old old");
    await fs.chmod(file, 0o640);
    await writeFileAtomic(file, new TextEncoder().encode("new"));
    expect([await fs.readFile(file, "utf8"), modeOf(file)]).toEqual(["new", 0o640]);
  });

  it("a file given as pieces holds them in order, texts and bytes alike", async () => {
    const file = path.join(dir, "cache.json");
    function* pieces(): Generator<string | Uint8Array> {
      yield '{"a":';
      yield new TextEncoder().encode('"é"');
      yield "}";
    }
    await writeFileAtomic(file, pieces());
    expect(await fs.readFile(file, "utf8")).toBe('{"a":"é"}');
  });

  it("a piece that fails to be made leaves the target as it was and no temporary file", async () => {
    const file = path.join(dir, "cache.json");
    writeFileSync(file, "old");
    function* pieces(): Generator<string> {
      yield "half";
      throw new Error("no more");
    }
    await expect(writeFileAtomic(file, pieces())).rejects.toThrow("no more");
    expect([await fs.readFile(file, "utf8"), readdirSync(dir)]).toEqual(["old", ["cache.json"]]);
  });

  it("makeFolder creates the missing folders with the given mode", async () => {
    const file = path.join(dir, "a", "b", "answer.json");
    await writeFileAtomic(file, "x", { makeFolder: { mode: 0o700 } });
    expect([await fs.readFile(file, "utf8"), modeOf(path.join(dir, "a", "b"))]).toEqual(["x", 0o700]);
  });

  it("a failed rename (a folder in the way) leaves the target as it was and no temporary file", async () => {
    const target = path.join(dir, "taken");
    await fs.mkdir(target);
    writeFileSync(path.join(target, "inside"), "kept");
    await expect(writeFileAtomic(target, "x")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
    expect(await fs.readFile(path.join(target, "inside"), "utf8")).toBe("kept");
  });

  it("isTempOf names the temporary files of one target only", () => {
    const file = path.join(dir, "cache.json");
    expect(
      ["cache.json.123.abc.tmp", "cache.json", "other.json.1.a.tmp", "cache.json.123.abc"].map((n) =>
        isTempOf(file, n),
      ),
    ).toEqual([true, false, false, false]);
  });
});

describe("beginAtomicWrite", () => {
  it("creates the temporary file at once, so an unwritable folder fails before the bytes exist", async () => {
    const file = path.join(dir, "out.xlsx");
    const pending = await beginAtomicWrite(file, { mode: 0o644 });
    expect(readdirSync(dir).filter((n) => isTempOf(file, n))).toHaveLength(1);
    await pending.write("whole");
    expect([readdirSync(dir), await fs.readFile(file, "utf8"), modeOf(file)]).toEqual([
      ["out.xlsx"],
      "whole",
      0o644,
    ]);
    await expect(beginAtomicWrite(path.join(dir, "missing", "out.xlsx"))).rejects.toThrow("ENOENT");
  });

  it("discard removes the temporary file and leaves the target as it was; a later write is refused", async () => {
    const file = path.join(dir, "model.xlsx");
    writeFileSync(file, "the old file");
    const pending = await beginAtomicWrite(file);
    await pending.discard();
    expect([readdirSync(dir), await fs.readFile(file, "utf8")]).toEqual([["model.xlsx"], "the old file"]);
    await expect(pending.write("new")).rejects.toThrow(`the replacement of ${file} has already ended`);
    expect(await fs.readFile(file, "utf8")).toBe("the old file");
  });

  (process.getuid?.() === 0 ? it : it.skip)(
    "keepOwner keeps an existing file's owner (run as root)",
    async () => {
      const file = path.join(dir, "colleague.xlsx");
      writeFileSync(file, "old");
      await fs.chown(file, 4321, 4321);
      await (await beginAtomicWrite(file, { keepOwner: true })).write("new");
      expect([statSync(file).uid, statSync(file).gid]).toEqual([4321, 4321]);
      await writeFileAtomic(file, "newer");
      expect(statSync(file).uid).toBe(0);
    },
  );
});
