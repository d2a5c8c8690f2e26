// The file side of `fdq refresh` (Node only; the rest of src/workbook/xlsx works on bytes, for the browser too):
// reading the input, and an output that is checked before the first request and written atomically.
//
// The output is the project's one atomic write (src/api/atomic-file.ts), begun at once (its temporary file
// created next to the target, so a missing, read-only or full folder is found before any quota is spent) and
// finished with the bytes: the target is either the old file or the whole new one, never a cut-off zip. On any
// failure the temporary file is removed. Writing over the input is only done when asked (--in-place), keeping
// its permissions and owner.
import { constants } from "node:fs";
import { access, readFile, stat, statfs } from "node:fs/promises";
import path from "node:path";
import { beginAtomicWrite, type PendingWrite } from "../../api/node";

/**
 * The input or output cannot be used; the message says what to do. Exit status 2 (bad input). A class of its
 * own (not OutputWriteError) because the exit status it leads to differs: nothing was requested yet.
 */
export class FileProblem extends Error {
  override name = "FileProblem";
}

/**
 * Writing the finished workbook failed (after the requests); nothing was written over anything. Exit 1: a
 * class of its own because, unlike FileProblem, quota was already spent.
 */
export class OutputWriteError extends Error {
  override name = "OutputWriteError";
}

const reasonOf = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOSPC" || code === "EDQUOT") return "the disk is full";
  if (code === "EROFS") return "a read-only disk";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return (err as Error).message;
};

/** The input's bytes; a folder or a missing file is refused with what to do. */
export async function readInput(file: string): Promise<Uint8Array> {
  let info;
  try {
    info = await stat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new FileProblem(`cannot refresh ${file}: it does not exist; check the path`);
    }
    throw new FileProblem(`cannot refresh ${file}: ${reasonOf(err)}`);
  }
  if (info.isDirectory()) {
    throw new FileProblem(
      `cannot refresh ${file}: it is a folder; give the path of an .xlsx or .xlsm workbook`,
    );
  }
  try {
    return new Uint8Array(await readFile(file));
  } catch (err) {
    throw new FileProblem(`cannot refresh ${file}: it cannot be read (${reasonOf(err)})`);
  }
}

/** Whether two paths name one file (the same inode, or the same resolved path when one does not exist). */
export async function sameFile(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

export class AtomicOutput {
  private constructor(
    readonly target: string,
    private pending: PendingWrite | undefined,
  ) {}

  /**
   * Checks that `target` can be written, by beginning its atomic write now, and that its disk has room for
   * about `expectedBytes`. The result keeps an existing target's permissions (the input's, in place), and in
   * place its owner too; a new file gets the usual permissions (0666 less the umask).
   */
  static async prepare(target: string, expectedBytes: number, inPlace = false): Promise<AtomicOutput> {
    const dir = path.dirname(path.resolve(target));
    const cannot = `cannot write ${target}:`;
    try {
      if ((await stat(target)).isDirectory()) {
        throw new FileProblem(
          `${cannot} it is a folder; give the path of the workbook to write, e.g. -o ${path.join(target, "refreshed.xlsx")}`,
        );
      }
    } catch (err) {
      if (err instanceof FileProblem) throw err;
    }
    try {
      if (!(await stat(dir)).isDirectory()) throw new FileProblem(`${cannot} ${dir} is not a folder`);
    } catch (err) {
      if (err instanceof FileProblem) throw err;
      throw new FileProblem(`${cannot} the folder ${dir} does not exist; create it or give another -o path`);
    }
    let pending: PendingWrite;
    try {
      await access(dir, constants.W_OK);
      pending = await beginAtomicWrite(target, { mode: 0o666 & ~process.umask(), keepOwner: inPlace });
    } catch (err) {
      throw new FileProblem(
        `${cannot} the folder ${dir} is not writable (${reasonOf(err)}); give an -o path in a folder you can write to`,
      );
    }
    const output = new AtomicOutput(target, pending);
    try {
      const fs = await statfs(dir);
      const free = fs.bavail * fs.bsize;
      if (free < expectedBytes) {
        throw new FileProblem(
          `${cannot} its disk has ${free.toLocaleString("en-US")} bytes free and the refreshed workbook needs about ` +
            `${expectedBytes.toLocaleString("en-US")}; free some space or give an -o path on another disk`,
        );
      }
    } catch (err) {
      await output.discard();
      throw err instanceof FileProblem ? err : new FileProblem(`${cannot} ${reasonOf(err)}`);
    }
    return output;
  }

  /** Writes, flushes and renames over the target; on failure the target is untouched and the temp removed. */
  async commit(bytes: Uint8Array): Promise<void> {
    const pending = this.pending;
    if (!pending) throw new OutputWriteError(`cannot write ${this.target}: the output was already closed`);
    this.pending = undefined;
    try {
      await pending.write(bytes);
    } catch (err) {
      throw new OutputWriteError(
        `cannot write ${this.target} (${reasonOf(err)}): nothing was written there, and the input is untouched`,
      );
    }
  }

  /** Removes the temporary file (a run that stops before writing). */
  async discard(): Promise<void> {
    const pending = this.pending;
    this.pending = undefined;
    await pending?.discard();
  }
}
