// jest's node environment, with one temporary folder per test file that is removed when the file ends.
//
// The tests and the processes they start (fdq, the gateway, LibreOffice, Chromium's profile) make their temporary
// files under os.tmpdir(); a run used to leave thousands of folders in /tmp. While a file runs, TMPDIR names a
// fresh folder (/tmp/fdq-test-XXXXXX), so os.tmpdir() in the test and in every child that inherits the environment
// lands there, and the folder goes with everything in it when the file is done, passed or failed. A worker runs one
// file at a time, so the variable is the file's own. tsx's compile cache (tsx-UID) is shared with the real temporary
// folder through a link, as on a user's machine, so each file's first `fdq` process does not compile the sources
// again.
//
// FDQ_TEST_CPU_LOG=FILE appends one line per test file to FILE: its path, the CPU seconds of the worker while the
// file ran and of the processes it started and waited for (fdq, Chromium, LibreOffice, Redis, gateways), its
// wall seconds and the worker's process id (a new id is a new worker: jest replaced one that outgrew its memory
// limit). Both cores are busy through a full run, so a file's CPU, not its wall time, is what it costs the run.
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

/** CPU seconds of this process and of its waited-for children so far (Linux; the children count 0 elsewhere). */
function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    // pid (comm) state ... : fields 16 and 17 (cutime, cstime) in clock ticks, counted after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    children = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    // Not Linux.
  }
  return { self: (user + system) / 1e6, children };
}

class TempDirEnvironment extends TestEnvironment {
  constructor(config, context) {
    const cpuLog = process.env.FDQ_TEST_CPU_LOG;
    const dir = fileTempDir();
    const previous = process.env.TMPDIR;
    // Before the base constructor copies process.env into the test's `process`.
    process.env.TMPDIR = dir;
    super(config, context);
    this.tempDir = dir;
    this.previousTmpDir = previous;
    if (cpuLog) this.cpu = { log: cpuLog, file: context.testPath, start: cpuSeconds(), wall: Date.now() };
  }

  async teardown() {
    try {
      await super.teardown();
    } finally {
      if (this.previousTmpDir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = this.previousTmpDir;
      fs.rmSync(this.tempDir, { recursive: true, force: true, maxRetries: 3 });
      if (this.cpu) {
        const { log, file, start, wall } = this.cpu;
        const end = cpuSeconds();
        const fixed = (n) => n.toFixed(1);
        const line = [
          path.relative(process.cwd(), file),
          fixed(end.self - start.self),
          fixed(end.children - start.children),
          fixed((Date.now() - wall) / 1000),
          `pid ${process.pid}`,
        ];
        fs.appendFileSync(log, `${line.join(" ")}\n`);
      }
    }
  }
}

module.exports = TempDirEnvironment;
