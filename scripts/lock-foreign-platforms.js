// npm here reaches a registry that serves only this machine's platform builds of packages with native
// binaries (@swc/core-*, @unrs/resolver-binding-*). `npm install` then leaves the other platforms'
// optional dependencies out of package-lock.json, and `npm ci` refuses the lock as out of sync. This adds
// a lock entry, with its os/cpu/libc, for each optional platform package a locked package names but the
// lock lacks, so `npm ci` skips them as foreign platforms. Run after any `npm install`:
//   node scripts/lock-foreign-platforms.js
const fs = require("node:fs");
const path = require("node:path");

const lockPath = path.join(__dirname, "..", "package-lock.json");
const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));
const packages = lock.packages;

const OS = [
  "android",
  "darwin",
  "freebsd",
  "linux",
  "win32",
  "openharmony",
  "sunos",
  "netbsd",
  "openbsd",
  "aix",
];
const CPU = ["arm64", "arm", "x64", "ia32", "ppc64", "s390x", "riscv64", "loong64", "wasm32"];

/** Platform fields from a binding's name, e.g. "core-linux-arm-gnueabihf" -> linux / arm / glibc. */
function platformOf(name) {
  const parts = path.basename(name).split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  const libc = parts.some((p) => p.startsWith("gnu"))
    ? "glibc"
    : parts.some((p) => p.startsWith("musl"))
      ? "musl"
      : undefined;
  if (!cpu) return undefined;
  return { ...(os ? { os: [os] } : {}), cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [key, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const depKey = `node_modules/${dep}`;
    const nestedKey = `${key}/node_modules/${dep}`;
    if (packages[depKey] || packages[nestedKey]) continue;
    const platform = platformOf(dep);
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    packages[depKey] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} foreign-platform optional entries`);
