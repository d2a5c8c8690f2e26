// fdq retrofit on the retrofit corpus (`npm run bench:retrofit`): the corpus (test/support/xlsx-corpus/
// retrofit-models.ts) is built from an embedded sandbox's synthetic data through the client, written as openpyxl
// writes a workbook and, a second time, as LibreOffice re-saves it; `fdq retrofit --report` runs on each as a
// process against the same sandbox, without a cache. Prints, per book, precision and recall of the proposed
// links, the units the run spent (the sandbox's count) and units per linked cell, and whether the targets hold
// (precision >= 0.98, recall >= 0.9, units <= 2 x linked). One JSON line per book.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FdqClient } from "../src/api";
import { evaluateAll } from "../src/functions/evaluate";
import { startSandbox } from "../src/sandbox";
import { scoreRetrofit, type ReportRow } from "../test/support/retrofit-score";
import { retrofitCorpus } from "../test/support/xlsx-corpus/retrofit-models";

const ROOT = path.resolve(__dirname, "..");

function libreOfficeCopy(file: string, dir: string): string | undefined {
  const out = path.join(dir, "lo");
  try {
    execFileSync(
      "soffice",
      [
        `-env:UserInstallation=file://${path.join(dir, "profile")}`,
        "--headless",
        "--convert-to",
        "xlsx",
        "--outdir",
        out,
        file,
      ],
      { stdio: "ignore", timeout: 120_000 },
    );
    return path.join(out, path.basename(file));
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: 0 });
  const dir = mkdtempSync(path.join(tmpdir(), "fdq-retrofit-bench-"));
  try {
    const client = new FdqClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey });
    const corpus = await retrofitCorpus(async (calls) =>
      (await evaluateAll(client, calls)).map((o) => (o.ok && typeof o.value === "number" ? o.value : null)),
    );
    await client.close();
    const file = path.join(dir, "models.xlsx");
    writeFileSync(file, corpus.bytes);
    const books: [string, string | undefined][] = [
      ["openpyxl", file],
      ["libreoffice", libreOfficeCopy(file, dir)],
    ];
    for (const [writer, book] of books) {
      if (book === undefined) {
        console.log(
          JSON.stringify({ book: writer, skipped: "LibreOffice (soffice) could not convert the corpus" }),
        );
        continue;
      }
      const report = path.join(dir, `${writer}.json`);
      const before = sandbox.usage();
      const started = performance.now();
      // Asynchronously: the sandbox answering it runs in this process.
      await promisify(execFile)(
        process.execPath,
        [
          path.join(ROOT, "bin/fdq.js"),
          "retrofit",
          book,
          "--report",
          report,
          "--base-url",
          sandbox.baseUrl,
          "--api-key",
          sandbox.demoKey,
          "--no-cache",
          "--ticker",
          "K",
        ],
        { cwd: ROOT },
      );
      const seconds = (performance.now() - started) / 1000;
      const units = sandbox.usage() - before;
      const score = scoreRetrofit(corpus.truth, JSON.parse(readFileSync(report, "utf8")) as ReportRow[]);
      const line = {
        book: writer,
        numbers: corpus.truth.length,
        relevant: score.relevant,
        linked: score.linked,
        precision: Number(score.precision.toFixed(3)),
        recall: Number(score.recall.toFixed(3)),
        units,
        units_per_linked: Number((units / Math.max(1, score.linked)).toFixed(2)),
        seconds: Number(seconds.toFixed(1)),
      };
      console.log(JSON.stringify(line));
      for (const w of score.wrongLinks) console.log(`  wrong link: ${w}`);
      for (const m of score.missed) console.log(`  missed: ${m}`);
      const met = score.precision >= 0.98 && score.recall >= 0.9 && units <= 2 * score.linked;
      console.log(
        `${writer}: precision ${line.precision} (>= 0.98), recall ${line.recall} (>= 0.9), ${units} units for ${score.linked} linked cells (<= 2x): ${met ? "met" : "MISSED"}`,
      );
    }
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
