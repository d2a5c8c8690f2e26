// One way to replace a file on disk (Node only, like storage-file.ts: the gateway and the CLI import it
// directly, never the browser bundle). A temporary file beside the target is written, flushed to disk
// (fsync) and renamed over the target, so a reader sees the old file or the whole new one, never a cut-off
// one, even after a crash or a full disk. The result keeps the target's permissions when it exists (a user
// who opened up or narrowed a file keeps that), else the caller's (private by default: caches and ledgers
// name accounts). On any failure the temporary file is removed and the target is untouched.
import { promises as fs } from "node:fs";
import * as path from "node:path";

export interface AtomicWriteOptions {
  /** Permissions of a new file (default 0o600); an existing target keeps its own. */
  mode?: number;
  /** Create the target's folder (and its parents) with this mode when missing. */
  makeFolder?: { mode: number };
}

/** The temporary files of `file` are named `<file>.<pid>.<random>.tmp`, so a cleaner can find them. */
export const isTempOf = (file: string, name: string): boolean =>
  name.startsWith(`${path.basename(file)}.`) && name.endsWith(".tmp");

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  if (options.makeFolder) await fs.mkdir(path.dirname(file), { recursive: true, ...options.makeFolder });
  const mode = await fs.stat(file).then(
    (s) => s.mode & 0o7777,
    () => options.mode ?? 0o600,
  );
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(temp, "wx", mode);
    await fs.writeFile(handle, data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    // open's mode passes through the umask; the kept permissions are set exactly.
    await fs.chmod(temp, mode);
    await fs.rename(temp, file);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temp, { force: true, recursive: true }).catch(() => undefined);
    throw e;
  }
}
