// `fdq refresh` on inputs and outputs it cannot use: each is refused with a sentence that says what to do and
// its exit status, before anything is sent to the service (request count 0), and the input is left as it was.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  symlinkSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { AtomicOutput, OutputWriteError } from "../../../src/workbook/xlsx/node-files";
import { fidelityBook } from "../../support/xlsx-corpus/fidelity-book";
import { BIN, runFdq, type Run } from "../cli/run-fdq";

let sandbox: RunningSandbox;
const mounts: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(async () => {
  for (const dir of mounts) execFileSync("umount", [dir]);
  await sandbox.close();
});

/** `fdq refresh ARGS` against the sandbox; `command` starts fdq some other way (default: Node on the bundle). */
const refresh = (args: string[], command?: readonly string[]): Promise<Run> =>
  runFdq(
    ["refresh", ...args, "--base-url", sandbox.baseUrl, "--api-key", sandbox.demoKey, "--no-cache"],
    process.env,
    command,
  );

/** A compound file (the container of .xls and of encrypted Office files) naming `streams` in its directory. */
function compoundFile(streams: readonly string[]): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  streams.forEach((name, i) => {
    for (let j = 0; j < name.length; j++) bytes[1024 + i * 128 + j * 2] = name.charCodeAt(j);
  });
  return bytes;
}

/** The exit status of the full-disk command below when it could not mount its tmpfs. */
const NO_MOUNT = 97;

/**
 * How to start fdq on a full disk of `bytes` at the folder `dir`: a tmpfs mounted there in a mount namespace of its
 * own (unshare), inside a user namespace when this is not root, so it needs no root and leaves no mount behind.
 * The namespace ends with fdq, and the tmpfs with it: what fdq left on it is listed into the file `listing` first.
 */
function onFullDisk(dir: string, bytes: number, listing: string): string[] {
  const asUser = process.getuid?.() === 0 ? [] : ["--user", "--map-root-user"];
  const script =
    `mount -t tmpfs -o size=${bytes} tmpfs "$1" || exit ${NO_MOUNT}; ` +
    'dir=$1; listing=$2; shift 2; "$@"; code=$?; ls -A "$dir" > "$listing"; exit $code';
  return ["unshare", ...asUser, "--mount", "sh", "-c", script, "sh", dir, listing, process.execPath, BIN];
}

/** A tmpfs of `size` at a new folder, or undefined when this machine cannot mount one (not root). */
function tmpfs(options: string): string | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-mount-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  mounts.push(dir);
  return dir;
}

interface Case {
  /** The input file's bytes, or "folder" for a directory. */
  input: Uint8Array | "folder";
  /** Where to write, relative to the case's folder, or a function of the folder. */
  out?: (dir: string) => string | undefined;
  code: number;
  message: (file: string, out: string) => string;
}

const corpus = fidelityBook();
const SAVE_AS =
  "open it in Excel and save it as an Excel Workbook (.xlsx) or Excel Macro-Enabled Workbook (.xlsm), then refresh that file";

const CASES: Record<string, Case> = {
  "a text file": {
    input: new TextEncoder().encode("Ticker,Year\nAAPL,2023\n"),
    code: 2,
    message: (file) =>
      `cannot refresh ${file}: it holds text, not an Excel workbook: give an .xlsx or .xlsm workbook (for a list of formulas, use fdq eval -f FILE)`,
  },
  "a truncated zip": {
    input: corpus.subarray(0, Math.floor(corpus.length / 2)),
    code: 2,
    message: (file) =>
      `cannot refresh ${file}: it is damaged: its zip directory is missing (the file is truncated or damaged); ` +
      "copy it again or restore it from a backup, and check that it opens in Excel",
  },
  "an encrypted workbook": {
    input: compoundFile(["EncryptionInfo", "EncryptedPackage"]),
    code: 2,
    message: (file) =>
      `cannot refresh ${file}: it is encrypted with a password, and fdq refresh cannot read an encrypted workbook: ` +
      "open it in Excel, remove the password (File > Info > Protect Workbook > Encrypt with Password), save it, and refresh it again",
  },
  "an .xls workbook": {
    input: compoundFile(["Workbook", "SummaryInformation"]),
    code: 2,
    message: (file) =>
      `cannot refresh ${file}: it is an Excel 97-2003 workbook (.xls), which fdq refresh cannot patch: ${SAVE_AS}`,
  },
  "a folder": {
    input: "folder",
    code: 2,
    message: (file) => `cannot refresh ${file}: it is a folder; give the path of an .xlsx or .xlsm workbook`,
  },
  "an output folder that does not exist": {
    input: corpus,
    out: (dir) => path.join(dir, "missing", "out.xlsx"),
    code: 2,
    message: (_, out) =>
      `cannot write ${out}: the folder ${path.dirname(out)} does not exist; create it or give another -o path`,
  },
};

describe.each(Object.entries(CASES))("%s", (_, c) => {
  it("is refused with what to do, nothing sent, the input untouched", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-bad-"));
    const file = path.join(dir, c.input === "folder" ? "model" : "model.xlsx");
    if (c.input === "folder") mkdirSync(file);
    else writeFileSync(file, c.input);
    const out = c.out?.(dir) ?? path.join(dir, "out.xlsx");
    const requests = sandbox.stats().requests;
    const run = await refresh([file, "-o", out]);
    expect(run).toEqual({ code: c.code, stdout: "", stderr: `fdq refresh: ${c.message(file, out)}\n` });
    expect(sandbox.stats().requests).toBe(requests);
    if (c.input !== "folder") expect(readFileSync(file)).toEqual(Buffer.from(c.input));
    expect(existsSync(out)).toBe(false);
  });
});

describe("the output", () => {
  async function refused(out: string, expected: string, command?: readonly string[]): Promise<void> {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-bad-"));
    const file = path.join(dir, "model.xlsx");
    writeFileSync(file, corpus);
    const requests = sandbox.stats().requests;
    const run = await refresh([file, "-o", out], command);
    // The full disk's command could not start (no unshare) or mount its tmpfs: say so, rather than a mismatch.
    if (command !== undefined && (run.code === NO_MOUNT || Number.isNaN(run.code))) {
      throw new Error(
        "a full disk needs a tmpfs mounted in a mount namespace of its own (unshare --mount, with --user " +
          `--map-root-user when not root), and this machine refused it: ${run.stderr.trim() || "unshare did not start"}`,
      );
    }
    expect(run).toEqual({ code: 2, stdout: "", stderr: `fdq refresh: ${expected}\n` });
    expect(sandbox.stats().requests).toBe(requests);
    expect(readFileSync(file)).toEqual(Buffer.from(corpus));
  }

  it("in a read-only folder is refused before the first request", async () => {
    let dir = tmpfs("ro,size=64k");
    let reason = "a read-only disk";
    if (!dir) {
      // Not root: a folder without write permission says the same.
      dir = mkdtempSync(path.join(tmpdir(), "fdq-ro-"));
      chmodSync(dir, 0o555);
      reason = "permission denied";
    }
    const out = path.join(dir, "out.xlsx");
    await refused(
      out,
      `cannot write ${out}: the folder ${dir} is not writable (${reason}); give an -o path in a folder you can write to`,
    );
  });

  it("on a full disk is refused before the first request, leaving no file behind", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-full-"));
    const listing = `${dir}.listing`;
    const out = path.join(dir, "out.xlsx");
    const free = 16 * 1024;
    await refused(
      out,
      `cannot write ${out}: its disk has ${free.toLocaleString("en-US")} bytes free and the refreshed workbook needs ` +
        `about ${(corpus.length + 64 * 1024).toLocaleString("en-US")}; free some space or give an -o path on another disk`,
      onFullDisk(dir, free, listing),
    );
    expect(readFileSync(listing, "utf8")).toBe("");
  });

  it("that fails while being written leaves the target as it was and no temporary file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-fail-"));
    const target = path.join(dir, "sub", "out.xlsx");
    mkdirSync(path.dirname(target));
    writeFileSync(target, "the old file");
    const output = await AtomicOutput.prepare(target, 10);
    // The folder goes away between the check and the write: the rename fails.
    execFileSync("rm", ["-rf", path.dirname(target)]);
    mkdirSync(path.dirname(target));
    writeFileSync(target, "the old file");
    await expect(output.commit(new Uint8Array(100))).rejects.toThrow(OutputWriteError);
    await expect(output.commit(new Uint8Array(100))).rejects.toThrow(
      `cannot write ${target}: the output was already closed`,
    );
    expect(readFileSync(target, "utf8")).toBe("the old file");
    expect(readdirSync(path.dirname(target))).toEqual(["out.xlsx"]);
  });

  it("is required: without -o or --in-place nothing is read or sent", async () => {
    const requests = sandbox.stats().requests;
    const run = await refresh(["model.xlsx"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "fdq: say where to write the refreshed workbook: -o OUT.xlsx for a new file, or --in-place to replace model.xlsx " +
        '(fdq refresh never writes over its input unless asked).\nRun "fdq --help" for the usage.\n',
    );
    expect(sandbox.stats().requests).toBe(requests);
  });

  it("naming the input is refused without --in-place", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-bad-"));
    const file = path.join(dir, "model.xlsx");
    writeFileSync(file, corpus);
    const run = await refresh([file, "-o", path.join(dir, ".", "model.xlsx")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `fdq: -o names the input workbook itself: use --in-place to replace ${file}, or give another -o path.\n` +
        'Run "fdq --help" for the usage.\n',
    );
    expect(readFileSync(file)).toEqual(Buffer.from(corpus));
  });

  it("--in-place replaces the input atomically, keeping its permissions and leaving no temporary file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-inplace-"));
    const file = path.join(dir, "model.xlsx");
    writeFileSync(file, corpus);
    chmodSync(file, 0o640);
    const run = await refresh([file, "--in-place"]);
    expect([0, 4]).toContain(run.code);
    expect(run.stdout).toMatch(new RegExp(`Wrote ${file.replace(/[.\\]/g, "\\$&")}\\.\\n$`));
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readFileSync(file)).not.toEqual(Buffer.from(corpus));
    expect(readdirSync(dir)).toEqual(["model.xlsx"]);
  });

  it("--in-place through a symbolic link replaces the file it points at, and the link stays", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fdq-inplace-"));
    const file = path.join(dir, "model.xlsx");
    const link = path.join(dir, "today.xlsx");
    writeFileSync(file, corpus);
    symlinkSync(file, link);
    const run = await refresh([link, "--in-place"]);
    expect(run.stdout).toMatch(new RegExp(`Wrote ${file.replace(/[.\\]/g, "\\$&")}\\.\\n$`));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(file)).not.toEqual(Buffer.from(corpus));
    expect(readdirSync(dir).sort()).toEqual(["model.xlsx", "today.xlsx"]);
  });
});
