// Team mode's gateway tokens: each analyst presents a personal token in x-api-key; the gateway holds only
// its SHA-256 in the tokens file, one `name:sha256hex` a line (blank lines and `#` comments ignored), and
// re-reads the file when its mtime or size changes, looked at most once a second, so a token added or
// removed takes effect without a restart. Revocation fails closed: on reload, a file that is missing or
// cannot be read refuses every token (and the log says so, until it can be read again), and a malformed
// line is dropped on its own (the log names its number) while the other lines hold. At start-up either is
// an error. Tokens and hashes are never logged, nor a line (it could be a raw token pasted by mistake).
// A token longer than any FDQ key (errors.ts) is refused before it is hashed.
import { createHash } from "node:crypto";
import { promises as fs, readFileSync, statSync } from "node:fs";
import { GatewaySetupError, MAX_KEY_CHARS } from "./errors";

/** The SHA-256 of a token, 64 lowercase hex digits: what the tokens file holds. */
export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");

const NAME = /^[A-Za-z0-9._@-]{1,64}$/;
const HASH = /^[0-9a-f]{64}$/;

/** The line to paste into the tokens file for `token`, under `name`. */
export function tokenLine(name: string, token: string): string {
  if (!NAME.test(name)) throw new Error(tokenNameRule);
  return `${name}:${hashToken(token)}`;
}

export const tokenNameRule =
  "a token's name is 1 to 64 letters, digits, '.', '_', '@' or '-' (it names the analyst in the access log)";

/** The tokens file's text as a map from hash to analyst name, and the numbers of the malformed lines. */
export function readTokens(text: string): { byHash: Map<string, string>; bad: number[] } {
  const byHash = new Map<string, string>();
  const bad: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const at = line.indexOf(":");
    const name = at < 0 ? "" : line.slice(0, at).trim();
    const hash =
      at < 0
        ? ""
        : line
            .slice(at + 1)
            .trim()
            .toLowerCase();
    // The line itself is never quoted: it could be a raw token pasted by mistake.
    if (!NAME.test(name) || !HASH.test(hash)) bad.push(i + 1);
    else byHash.set(hash, name);
  });
  return { byHash, bad };
}

const badLines = (file: string, bad: number[]): string =>
  `${file} line${bad.length > 1 ? "s" : ""} ${bad.slice(0, 10).join(", ")}${bad.length > 10 ? ", ..." : ""} ` +
  `${bad.length > 1 ? "are" : "is"} not "name:sha256hex" (${tokenNameRule}; the hash is 64 hex digits, ` +
  "see `fdq serve --hash-token TOKEN`)";

/** The tokens file's text as a map from hash to analyst name; throws GatewaySetupError on a bad line. */
export function parseTokens(text: string, file: string): Map<string, string> {
  const { byHash, bad } = readTokens(text);
  if (bad.length > 0) throw new GatewaySetupError(badLines(file, bad), "--tokens");
  return byHash;
}

interface Stamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

export class GatewayTokens {
  private byHash: Map<string, string>;
  private stamp: Stamp;
  private checkedAt = performance.now();
  private checking: Promise<void> | undefined;
  private lastWarning = "";

  /** Reads the file now: a missing, unreadable or malformed file throws GatewaySetupError. */
  constructor(
    private readonly file: string,
    private readonly onWarning: (message: string) => void,
    private readonly intervalMs = 1_000,
  ) {
    try {
      const stat = statSync(file);
      this.byHash = parseTokens(readFileSync(file, "utf8"), file);
      this.stamp = { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
    } catch (e) {
      if (e instanceof GatewaySetupError) throw e;
      throw new GatewaySetupError(
        `the tokens file ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"})`,
        "--tokens",
      );
    }
  }

  /** How many tokens the table holds. */
  get size(): number {
    return this.byHash.size;
  }

  /** The analyst's name of `token`, or undefined when the token is unknown. */
  async lookup(token: string | undefined): Promise<string | undefined> {
    await this.refresh();
    if (token === undefined || token.trim() === "" || token.length > MAX_KEY_CHARS) return undefined;
    return this.byHash.get(hashToken(token));
  }

  /** Re-reads the file when its mtime or size changed, at most once per interval. */
  private refresh(): Promise<void> {
    const now = performance.now();
    if (this.checking) return this.checking;
    if (now - this.checkedAt < this.intervalMs) return Promise.resolve();
    this.checkedAt = now;
    this.checking = this.reload().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async reload(): Promise<void> {
    let text: string;
    try {
      const stat = await fs.stat(this.file);
      const s = this.stamp;
      if (stat.mtimeMs === s.mtimeMs && stat.size === s.size && stat.ino === s.ino) return;
      // A version is read once, and again only when the file changes again.
      this.stamp = { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
      text = await fs.readFile(this.file, "utf8");
    } catch (e) {
      // Fails closed: a file deleted or made unreadable revokes every token, until it can be read again.
      this.byHash = new Map();
      this.stamp = { mtimeMs: -1, size: -1, ino: -1 };
      this.warnOnce(
        `fdq serve: the tokens file ${this.file} cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"}): ` +
          "every token is refused until it can be read again.",
      );
      return;
    }
    const { byHash, bad } = readTokens(text);
    this.byHash = byHash;
    this.lastWarning = "";
    const dropped = bad.length === 0 ? "" : `; dropped (refused) as malformed: ${badLines(this.file, bad)}`;
    this.onWarning(`fdq serve: reloaded ${this.file} (${byHash.size} token(s))${dropped}.`);
  }

  private warnOnce(warning: string): void {
    if (warning !== this.lastWarning) this.onWarning(warning);
    this.lastWarning = warning;
  }
}
