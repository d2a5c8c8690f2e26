// Every dependent `fdq refresh` writes is what LibreOffice computes from the same FDQ values, or is left alone
// and reported by cell; every FDQ call of the workbook is refreshed or reported. The dependents corpus
// (test/support/xlsx-corpus/dependents-book.ts: one dependent per row for each class of formula, FDQ calls in
// every form) is written as openpyxl writes it, and again as LibreOffice writes it (LibreOffice converts the
// openpyxl book once). Both are refreshed by `fdq` against the sandbox. Each refreshed book is then given to
// LibreOffice with its FDQ calls replaced by the values the service answers (cells and names), and LibreOffice,
// recalculating every formula on load, is the oracle: numbers must agree to 1e-9 relative (the rule of
// libreoffice-oracle.test.ts). Functions LibreOffice 7 lacks (SORT, SEQUENCE, _xlfn.SINGLE, the spill operator #)
// are checked against values worked out by hand from the refreshed FDQ cells. Two LibreOffice launches in all:
// one to write the LibreOffice book, one converting both oracle books. `FDQ_TEST_FIGURES=1` prints the figures.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { engineFormula } from "../../../src/workbook/formula-text";
import { ExcelError, type Scalar } from "../../../src/workbook/model";
import {
  libreOfficeProfile,
  readOracleValues,
  RECALCULATE_ON_LOAD,
  unzip,
  type OracleValue,
} from "../../support/oracle-xlsx";
import {
  DATA_TABLE,
  DEPENDENTS,
  dependentsBook,
  NAMES,
  type DataValues,
  type Writer,
} from "../../support/xlsx-corpus/dependents-book";
import { zipParts } from "../../support/xlsx-corpus/zip-parts";
import { runFdq } from "../cli/run-fdq";

const soffice = spawnSync("sh", ["-c", "command -v soffice"], { encoding: "utf8" }).stdout.trim();
if (!soffice) {
  process.stderr.write(
    "soffice not found: test/integration/workbook/dependents-oracle.test.ts skips (run scripts/ensure-libreoffice.sh).\n",
  );
}
const describeWithLibreOffice = soffice ? describe : describe.skip;

const NA = { error: "#N/A" } as const;
type Expected = number | string | boolean | { error: string };

/** The cells of Deps a refresh must compute or report: every formula, array range and data table cell. */
function dependentCells(): string[] {
  const cells = new Set<string>();
  const range = (ref: string): string[] => {
    const [from, to = from] = ref.split(":") as [string, string?];
    const [, c1 = "", r1 = ""] = /^([A-Z]+)(\d+)$/.exec(from) ?? [];
    const [, c2 = "", r2 = ""] = /^([A-Z]+)(\d+)$/.exec(to) ?? [];
    const out: string[] = [];
    for (let r = Number(r1); r <= Number(r2); r++)
      for (let c = c1.charCodeAt(0); c <= c2.charCodeAt(0); c++) out.push(`${String.fromCharCode(c)}${r}`);
    return out;
  };
  for (const d of DEPENDENTS) for (const cell of d.array ? range(d.array) : [d.cell]) cells.add(cell);
  for (const cell of range(DATA_TABLE.ref)) cells.add(cell);
  return [...cells];
}

/** What a refresh reported on stderr: "Sheet!A1" (or a rule's range, "the name X") -> the reason. */
function reported(stderr: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of stderr.matchAll(/^fdq refresh: (.+?): (left with its old value|not refreshed), (.*)$/gm))
    out.set(m[1] as string, m[3] as string);
  return out;
}

const ERROR_FORMULA: Record<string, string> = {
  "#N/A": "NA()",
  "#DIV/0!": "1/0",
  "#VALUE!": '"a"+0',
  "#NUM!": "SQRT(-1)",
};

/**
 * The refreshed book for LibreOffice: each FDQ cell becomes the value the refresh wrote (an error as a formula
 * giving it), each name calling FDQ the service's value; every other formula is left for LibreOffice.
 */
function oracleBook(refreshed: Uint8Array, names: Record<string, number>): Uint8Array {
  const parts = unzip(Buffer.from(refreshed));
  const out: Record<string, string> = {};
  for (const [name, text] of parts) {
    let xml = text;
    if (name.startsWith("xl/worksheets/sheet")) {
      xml = xml.replace(
        /(<c r="[A-Z]+\d+"[^>]*?>)<f\b[^>]*?(?:\/>|>([\s\S]*?)<\/f>)([\s\S]*?<\/c>)/g,
        (cell, open: string, formula: string | undefined, rest: string) => {
          if (!engineFormula(unescape(formula ?? "")).callsFdq) return cell;
          const error = /t="e"/.test(open) ? /<v>([^<]*)<\/v>/.exec(rest)?.[1] : undefined;
          if (error !== undefined) return `${open}<f>${escapeXml(ERROR_FORMULA[error] ?? "NA()")}</f>${rest}`;
          return `${open}${rest}`;
        },
      );
    }
    if (name === "xl/workbook.xml") {
      xml = xml.replace(
        /(<definedName\b[^>]*\bname="([^"]*)"[^>]*>)([\s\S]*?)(<\/definedName>)/g,
        (whole, open: string, n: string, _text: string, close: string) =>
          names[n] === undefined ? whole : `${open}${names[n]}${close}`,
      );
    }
    out[name] = xml;
  }
  return zipParts(out);
}

const unescape = (s: string): string =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Each FDQ call site of a package: cells ("Sheet!A1"), names ("the name X"), rules ("Sheet!B2:B6"). */
function fdqSites(bytes: Uint8Array): string[] {
  const parts = unzip(Buffer.from(bytes));
  const calls = (text: string): boolean => engineFormula(unescape(text)).callsFdq;
  const workbook = parts.get("xl/workbook.xml") ?? "";
  const rels = parts.get("xl/_rels/workbook.xml.rels") ?? "";
  const sites: string[] = [];
  for (const n of workbook.matchAll(/<definedName\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/definedName>/g))
    if (calls(n[2] as string)) sites.push(`the name ${n[1] as string}`);
  for (const sheet of workbook.matchAll(/<sheet\b[^>]*name="([^"]*)"[^>]*r:id="([^"]*)"/g)) {
    const target = new RegExp(`Id="${sheet[2] as string}"[^>]*Target="/?(?:xl/)?([^"]*)"`).exec(rels)?.[1];
    const xml = parts.get(`xl/${target ?? ""}`) ?? "";
    for (const c of xml.matchAll(/<c r="([A-Z]+\d+)"[^>]*>\s*<f\b[^>]*>([\s\S]*?)<\/f>/g))
      if (calls(c[2] as string)) sites.push(`${sheet[1] as string}!${c[1] as string}`);
    for (const rule of xml.matchAll(
      /<(conditionalFormatting|dataValidation)\b[^>]*\bsqref="([^"]*)"[^>]*>([\s\S]*?)<\/\1>/g,
    ))
      if (
        [...(rule[3] as string).matchAll(/<formula\d?>([\s\S]*?)<\/formula\d?>/g)].some((f) =>
          calls(f[1] as string),
        )
      )
        sites.push(`${sheet[1] as string}!${rule[2] as string}`);
  }
  return sites;
}

function same(ours: OracleValue | undefined, theirs: Expected | OracleValue | undefined): boolean {
  if (typeof ours === "number" && typeof theirs === "number")
    return Math.abs(ours - theirs) <= 1e-9 * Math.max(1, Math.abs(theirs));
  if (typeof ours === "object" && ours !== null && typeof theirs === "object" && theirs !== null)
    return ours.error === theirs.error;
  return ours === theirs;
}

const show = (v: unknown): string => JSON.stringify(v);

interface Refreshed {
  name: string;
  input: Uint8Array;
  output: Uint8Array;
  stderr: string;
  code: number;
  ours: Map<string, OracleValue>;
  theirs: Map<string, OracleValue>;
  left: Map<string, string>;
}

describeWithLibreOffice(
  "refreshed dependents against LibreOffice, and every FDQ call refreshed or reported",
  () => {
    let sandbox: RunningSandbox;
    let dir: string;
    const books: Refreshed[] = [];
    /** The service's ROIC by "TICKER year" (#N/A where it has none). */
    const roic = new Map<string, number | typeof NA>();

    async function datapoint(ticker: string, year: number): Promise<number | typeof NA> {
      const key = `${ticker} ${year}`;
      const known = roic.get(key);
      if (known !== undefined) return known;
      const url = `${sandbox.baseUrl}/metrics/roic/${ticker}?datapoint=ROIC&year=${year}`;
      const res = await fetch(url, { headers: { "x-api-key": sandbox.demoKey } });
      let value: number | typeof NA = NA;
      if (res.status === 200) {
        const envelope = (await res.json()) as { body: string | { results: unknown } };
        const body = typeof envelope.body === "string" ? JSON.parse(envelope.body) : envelope.body;
        const [record] = (Array.isArray(body.results) ? body.results : [body.results]) as {
          datavalue: string;
        }[];
        if (record) value = Number(record.datavalue);
      }
      roic.set(key, value);
      return value;
    }

    function convert(files: string[], outDir: string): void {
      const profile = libreOfficeProfile(path.join(dir, `profile-${path.basename(outDir)}`), [
        RECALCULATE_ON_LOAD,
      ]);
      execFileSync(
        soffice,
        [profile, "--headless", "--norestore", "--convert-to", "xlsx", "--outdir", outDir, ...files],
        {
          stdio: "pipe",
          timeout: 120_000,
        },
      );
    }

    beforeAll(async () => {
      sandbox = await startSandbox({ port: 0, host: "127.0.0.1" });
      dir = mkdtempSync(path.join(tmpdir(), "fdq-dependents-"));
      const openpyxl = path.join(dir, "openpyxl.xlsx");
      writeFileSync(openpyxl, dependentsBook());
      // The same book as LibreOffice writes it (its cached values computed without the add-in: #NAME?).
      convert([openpyxl], path.join(dir, "lo"));
      const libreoffice = path.join(dir, "libreoffice.xlsx");
      writeFileSync(libreoffice, readFileSync(path.join(dir, "lo", "openpyxl.xlsx")));

      const names: Record<string, number> = {};
      for (const n of NAMES) {
        const m = /DATAPOINT\("(\w+)","metrics\/roic","ROIC",(\d+)\)/i.exec(n.text);
        if (!m) continue;
        const v = await datapoint(m[1] as string, Number(m[2]));
        if (typeof v === "number") names[n.name] = v;
      }
      const runs = await Promise.all(
        [openpyxl, libreoffice].map((file) =>
          runFdq([
            "refresh",
            file,
            "-o",
            file.replace(/\.xlsx$/, "-refreshed.xlsx"),
            "--base-url",
            sandbox.baseUrl,
            "--api-key",
            sandbox.demoKey,
            "--no-cache",
          ]),
        ),
      );
      const oracleDir = path.join(dir, "oracle");
      const oracleInputs = [openpyxl, libreoffice].map((file) => {
        const refreshed = new Uint8Array(readFileSync(file.replace(/\.xlsx$/, "-refreshed.xlsx")));
        const input = file.replace(/\.xlsx$/, "-oracle.xlsx");
        writeFileSync(input, oracleBook(refreshed, names));
        return { file, refreshed, input };
      });
      convert(
        oracleInputs.map((o) => o.input),
        oracleDir,
      );
      oracleInputs.forEach(({ file, refreshed, input }, i) => {
        const run = runs[i] as { code: number; stderr: string };
        books.push({
          name: path.basename(file, ".xlsx"),
          input: new Uint8Array(readFileSync(file)),
          output: refreshed,
          stderr: run.stderr,
          code: run.code,
          ours: readOracleValues(Buffer.from(refreshed)),
          theirs: readOracleValues(readFileSync(path.join(oracleDir, path.basename(input)))),
          left: reported(run.stderr),
        });
      });
    }, 240_000);

    afterAll(async () => {
      await sandbox?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const book = (name: string): Refreshed => {
      const found = books.find((b) => b.name === name);
      if (!found) throw new Error(`no refreshed book ${name}`);
      return found;
    };

    describe.each(["openpyxl", "libreoffice"])("the book as %s writes it", (name) => {
      it("leaves no dependent silently wrong: each equals LibreOffice's value (or Excel's, by hand) or is reported", () => {
        const { ours, theirs, left } = book(name);
        const data: DataValues = (address) => {
          const v = ours.get(`Data!${address}`);
          return typeof v === "object" && v !== null ? new ExcelError(v.error as "#N/A") : (v ?? null);
        };
        const byHand = new Map<string, Scalar>();
        for (const d of DEPENDENTS)
          for (const [a, v] of Object.entries(d.byHand?.(data, name as Writer) ?? {})) byHand.set(a, v);
        const wrong: string[] = [];
        let equal = 0;
        const cells = dependentCells();
        for (const cell of cells) {
          const where = `Deps!${cell}`;
          if (left.has(where)) continue;
          const mine = ours.get(where);
          const hand = byHand.get(cell);
          const want =
            hand === undefined ? theirs.get(where) : hand instanceof ExcelError ? { error: hand.code } : hand;
          if (same(mine, want)) equal++;
          else
            wrong.push(
              `${where}: refreshed ${show(mine)}, ${hand === undefined ? "LibreOffice" : "by hand"} ${show(want)}`,
            );
        }
        const reportedCount = cells.filter((c) => left.has(`Deps!${c}`)).length;
        if (process.env.FDQ_TEST_FIGURES === "1") {
          process.stdout.write(
            `${name}: ${cells.length} dependents compared, ${equal} equal, ${reportedCount} reported, ${wrong.length} silently wrong\n`,
          );
        }
        expect(wrong).toEqual([]);
        expect(equal + reportedCount).toBe(cells.length);
      });

      it("computes every class it can and reports the rest by cell, with the function or the cell that stopped it", () => {
        const { left, code } = book(name);
        const deps = [...left].filter(([where]) => where.startsWith("Deps!"));
        const table = dependentCells().filter((c) => /^[IJK][678]$/.test(c));
        // The LibreOffice book holds LibreOffice's own forms of three formulas (TABLE(...) in each data table
        // cell, a union written as "~", E2# written with a stray ")"), reported as fdq cannot compute them.
        const libreoffice = name === "libreoffice";
        const expected = [
          ...table,
          ...["B21", "B22", "B30", ...(libreoffice ? ["B37"] : []), "B55", "B56", "B60", "B61"],
          ...[
            "B65",
            "B66",
            "B67",
            "B68",
            "B69",
            "B70",
            "B72",
            "B73",
            "B74",
            "B75",
            "B76",
            "B77",
            "B79",
            "B81",
            "B88",
            "B104",
            "B105",
          ],
        ].map((c) => `Deps!${c}`);
        expect(deps.map(([where]) => where).sort()).toEqual(expected.sort());
        const reasons = Object.fromEntries(deps);
        expect(reasons).toMatchObject({
          "Deps!B21": "uses AVERAGEA, which fdq refresh does not compute",
          "Deps!B55": "uses HOUR, which fdq refresh does not compute",
          "Deps!B60": 'reads the text "2023-01-05" as a number, which Excel does and fdq does not',
          "Deps!B66": "circular reference through Deps!B65",
          "Deps!B68": "uses RAND, which Excel computes again whenever it calculates (fdq refresh does not)",
          "Deps!B72": "uses OFFSET, which Excel computes again whenever it calculates (fdq refresh does not)",
          "Deps!B73": "uses OFFSET, which Excel computes again whenever it calculates (fdq refresh does not)",
          "Deps!B74":
            "uses INDIRECT, which Excel computes again whenever it calculates (fdq refresh does not)",
          "Deps!B77":
            "uses a reference across several sheets (Data:Clock!...), which fdq refresh does not compute",
          "Deps!B79":
            "uses SUBTOTAL(9) over a hidden row (Data!4:4): Excel leaves it out if a filter hid it, and the file does not say",
        });
        expect(reasons["Deps!B104"]).toBe(
          "compares 0.30000000000000004 with 0.3, which agree to 15 significant digits (Excel may take them as equal)",
        );
        expect(reasons["Deps!B69"]).toMatch(/^reads Clock!A1, .*TODAY/);
        expect(reasons["Deps!B70"]).toMatch(/^reads Clock!A2, .*NOW/);
        expect(reasons["Deps!B76"]).toMatch(/^reads Deps!I6, /);
        expect(reasons["Deps!J7"]).toBe(
          libreoffice
            ? "uses TABLE, which fdq refresh does not compute"
            : "a result of the what-if data table Deps!I6 (I6:K8), which fdq refresh does not compute (Excel recalculates it on open)",
        );
        expect(code).toBe(4);
      });

      it("refreshes or reports every FDQ call of the package: in cells, nested, in arrays, in names, in rules", async () => {
        const { input, ours, left, stderr } = book(name);
        const sites = fdqSites(input);
        const expected = async (where: string): Promise<Expected | "text" | undefined> => {
          if (where === "Data!A11") return "text";
          if (where === "Data!B8" || where === "Data!B9")
            return datapoint(where === "Data!B8" ? "AAPL" : "MSFT", 2019);
          const m = /^Data!([B-E])(\d+)$/.exec(where);
          if (!m) return undefined;
          const ticker = ["AAPL", "MSFT", "NFLX", "K", "GOOG"][Number(m[2]) - 2] as string;
          const v = await datapoint(ticker, { B: 2023, C: 2022, D: 2021, E: 2020 }[m[1] as "B"]);
          if (m[1] === "D") return typeof v === "number" ? Math.round(v * 1e4) / 1e4 : v;
          if (m[1] === "E") return typeof v === "number" ? v : "n/a";
          return v;
        };
        /** A name's calls are refreshed when a formula using it got the service's value. */
        const nameUsers: Record<string, () => Promise<boolean>> = {
          AaplRoic21: async () => same(ours.get("Deps!B38"), 2 * ((await datapoint("AAPL", 2021)) as number)),
          MsftRoic20: async () => same(ours.get("Deps!B39"), ((await datapoint("MSFT", 2020)) as number) + 1),
        };
        let refreshed = 0;
        let reportedCount = 0;
        const unreported: string[] = [];
        for (const site of sites) {
          if (left.has(site)) {
            reportedCount++;
            continue;
          }
          const definedName = /^the name (\w+)$/.exec(site)?.[1];
          let ok: boolean;
          if (definedName !== undefined) ok = (await nameUsers[definedName]?.()) ?? false;
          else {
            const want = await expected(site);
            const mine = ours.get(site);
            ok = want === "text" ? typeof mine === "string" && mine.length > 0 : same(mine, want);
          }
          if (ok) refreshed++;
          else unreported.push(`${site}: ${show(ours.get(site))}`);
        }
        if (process.env.FDQ_TEST_FIGURES === "1") {
          process.stdout.write(
            `${name}: ${sites.length} FDQ call sites found, ${refreshed} refreshed, ${reportedCount} reported, ${unreported.length} unreported\n`,
          );
        }
        expect(unreported).toEqual([]);
        // 23 cells (5 rows of four forms: plain, as Excel stores a custom function, nested in ROUND, lower case in
        // IFERROR; an array formula, a dynamic array, FDQ.SECURITY), 3 names, a conditional format, a validation.
        expect(sites).toHaveLength(28);
        expect(stderr).toContain(
          "fdq refresh: the name Unused: not refreshed, calls FDQ.DATAPOINT and no formula uses it, so there is no value to refresh\n",
        );
        expect(stderr).toContain(
          "fdq refresh: Data!B2:B6: not refreshed, a conditional format's rule calls FDQ.DATAPOINT; Excel evaluates it when it shows the sheet and the file stores no value of it, so fdq refresh has nothing to write\n",
        );
        expect(left.get("Data!J2")).toMatch(/^a data validation's limit calls FDQ.DATAPOINT; /);
      });
    });
  },
);
