// One way to replace a file on disk (Node only, like storage-file.ts: the gateway and the CLI import it
// directly, never the browser bundle). A temporary file beside the target is written, flushed to disk
// (fsync) and renamed over the target, so a reader sees the old file or the whole new one, never a cut-off
// one, even after a crash or a full disk. The result keeps the target's permissions when it exists (a user
// who opened up or narrowed a file keeps that), else the caller's (private by default: caches and ledgers
// name accounts). On any failure the temporary file is removed and the target is untouched.
//
// In two steps where the caller must know the target can be written before it has the bytes (`fdq refresh`
// checks its output before it spends any quota): `beginAtomicWrite` creates the temporary file at once and
// `write` fills and renames it later; `writeFileAtomic` is both steps at once.
import { promises as fs } from "node:fs";
import * as path from "node:path";

export interface AtomicWriteOptions {
  /** Permissions of a new file (default 0o600); an existing target keeps its own. */
  mode?: number;
  /** Create the target's folder (and its parents) with this mode when missing. */
  makeFolder?: { mode: number };
  /** Keep an existing target's owner too, where this process may set it (root refreshing a colleague's file). */
  keepOwner?: boolean;
}

/**
 * What a file is written from: its whole text or bytes, or its pieces in order (written one after another,
 * so that a large file, a cache or a refreshed workbook, need not be held whole in memory as one string or
 * buffer beside the data it is made from).
 */
export type FileData = string | Uint8Array | Iterable<string | Uint8Array>;

/** A replacement begun: its temporary file exists. Either `write` (once) or `discard` ends it. */
export interface PendingWrite {
  /** Fills, flushes and renames the temporary file over the target; on failure removes it and rethrows. */
  write(data: FileData): Promise<void>;
  /** Removes the temporary file; the target is untouched. */
  discard(): Promise<void>;
}

/** The temporary files of `file` are named `<file>.<pid>.<random>.tmp`, so a cleaner can find them. */
export const isTempOf = (file: string, name: string): boolean =>
  name.startsWith(`${path.basename(file)}.`) && name.endsWith(".tmp");

/** Creates the temporary file of `file` now (so a folder that cannot be written fails here). */
export async function beginAtomicWrite(
  file: string,
  options: AtomicWriteOptions = {},
): Promise<PendingWrite> {
  if (options.makeFolder) await fs.mkdir(path.dirname(file), { recursive: true, ...options.makeFolder });
  const existing = await fs.stat(file).catch(() => undefined);
  const mode = existing ? existing.mode & 0o7777 : (options.mode ?? 0o600);
  const owner = options.keepOwner && existing ? { uid: existing.uid, gid: existing.gid } : undefined;
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let handle: fs.FileHandle | undefined = await fs.open(temp, "wx", mode);
  const discard = async (): Promise<void> => {
    const open = handle;
    handle = undefined;
    await open?.close().catch(() => undefined);
    await fs.rm(temp, { force: true, recursive: true }).catch(() => undefined);
  };
  const write = async (data: FileData): Promise<void> => {
    const open = handle;
    if (!open) throw new Error(`the replacement of ${file} has already ended`);
    try {
      // On an open handle each writeFile continues where the previous one ended.
      if (typeof data === "string" || data instanceof Uint8Array) await fs.writeFile(open, data);
      else for (const piece of data) await fs.writeFile(open, piece);
      await open.sync();
      handle = undefined;
      await open.close();
      // open's mode passes through the umask; the kept permissions are set exactly.
      await fs.chmod(temp, mode);
      if (owner) await fs.chown(temp, owner.uid, owner.gid).catch(() => undefined);
      await fs.rename(temp, file);
    } catch (e) {
      await open.close().catch(() => undefined);
      await discard();
      throw e;
    }
  };
  return { write, discard };
}

export async function writeFileAtomic(
  file: string,
  data: FileData,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await (await beginAtomicWrite(file, options)).write(data);
}
