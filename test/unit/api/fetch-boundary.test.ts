// Every request to the service goes through the request module (timeouts, retries, key redaction): no other
// source file calls fetch. The servers may too: the sandbox, and the gateway, which relays the upstream's
// status and body unchanged (the request module's transport retries and turns answers into errors).
import fs from "node:fs";
import path from "node:path";

const SRC = path.join(__dirname, "../../../src");
const ALLOWED = ["api", "sandbox", "gateway"].map((dir) => path.join(SRC, dir) + path.sep);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** Calls of fetch in code, comments left out: `fetch(`, `.fetch(`, `fetch (`. */
const FETCH_CALL = /\bfetch\s*\(/;

describe("fetch only inside the request module", () => {
  it("finds no call of fetch in src outside src/api, src/sandbox and src/gateway", () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => !ALLOWED.some((dir) => file.startsWith(dir)))
      .flatMap((file) =>
        fs
          .readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ line: line.replace(/\/\/.*$|^\s*\*.*$/, ""), i }))
          .filter(({ line }) => FETCH_CALL.test(line))
          .map(({ i }) => `${path.relative(SRC, file)}:${i + 1}`),
      );
    expect(offenders).toEqual([]);
    expect(sourceFiles(SRC).length).toBeGreaterThan(20);
  });
});
