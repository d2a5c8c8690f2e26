// jest's node environment, with one temporary folder per test file that is removed when the file ends.
//
// The tests and the processes they start (fdq, the gateway, LibreOffice, Chromium's profile) make their temporary
// files under os.tmpdir(); a run used to leave thousands of folders in /tmp. While a file runs, TMPDIR names a
// fresh folder (/tmp/fdq-test-XXXXXX), so os.tmpdir() in the test and in every child that inherits the environment
// lands there, and the folder goes with everything in it when the file is done, passed or failed. A worker runs one
// file at a time, so the variable is the file's own. tsx's compile cache (tsx-UID) is shared with the real temporary
// folder through a link, as on a user's machine, so each file's first `fdq` process does not compile the sources
// again.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { TestEnvironment } = require("jest-environment-node");

/** The temporary folder of the machine, before any file's. */
const MACHINE_TMP = os.tmpdir();

function fileTempDir() {
  const dir = fs.mkdtempSync(path.join(MACHINE_TMP, "fdq-test-"));
  const uid = typeof process.getuid === "function" ? process.getuid() : "";
  const tsxCache = path.join(MACHINE_TMP, `tsx-${uid}`);
  try {
    fs.mkdirSync(tsxCache, { recursive: true, mode: 0o700 });
    fs.symlinkSync(tsxCache, path.join(dir, `tsx-${uid}`));
  } catch {
    // Without the link tsx compiles into the file's folder: slower, same results.
  }
  return dir;
}

class TempDirEnvironment extends TestEnvironment {
  constructor(config, context) {
    const dir = fileTempDir();
    const previous = process.env.TMPDIR;
    // Before the base constructor copies process.env into the test's `process`.
    process.env.TMPDIR = dir;
    super(config, context);
    this.tempDir = dir;
    this.previousTmpDir = previous;
  }

  async teardown() {
    try {
      await super.teardown();
    } finally {
      if (this.previousTmpDir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = this.previousTmpDir;
      fs.rmSync(this.tempDir, { recursive: true, force: true, maxRetries: 3 });
    }
  }
}

module.exports = TempDirEnvironment;
