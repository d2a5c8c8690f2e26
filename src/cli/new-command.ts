// `fdq new TEMPLATE --tickers AAPL,MSFT -o model.xlsx`: a new workbook holding one template's sheet
// (src/workbook/templates), its FDQ cells without values until `fdq refresh` fills them. It prints what filling it
// will cost, priced by the client's estimate as `fdq refresh --budget` and the pane's refresh estimate price a
// run (today's cache counted); nothing is sent. `fdq new --list` prints the templates' names, one a line.
import { existsSync } from "node:fs";
import { requestsOf } from "../functions/requests";
import {
  buildTemplate,
  findTemplate,
  TEMPLATES,
  templateCalls,
  TemplateParamsError,
  type TemplateSheet,
} from "../workbook/templates";
import { templateWorkbook } from "../workbook/templates/template-workbook";
import { AtomicOutput, FileProblem, OutputWriteError } from "../workbook/xlsx/node-files";
import { openConnection } from "./connection";
import { EXIT } from "./exit-codes";
import { billingOf, connection, CONNECTION_FLAGS, type ConnectionOptions, type Env } from "./options";
import { parse, UsageError } from "./parse-args";

export interface NewOptions extends ConnectionOptions {
  /** --list: print the templates' names and nothing else. */
  list: boolean;
  template: string;
  tickers: string[];
  datapoints: string[];
  out: string;
}

const names = (): string => TEMPLATES.map((t) => t.name).join(", ");
const splitList = (text: string | undefined): string[] =>
  (text ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");

export function parseNewArgs(args: string[], env: Env = process.env): NewOptions {
  const { values, positionals } = parse("new", args, {
    "base-url": CONNECTION_FLAGS["base-url"],
    "api-key": CONNECTION_FLAGS["api-key"],
    "cache-dir": CONNECTION_FLAGS["cache-dir"],
    "no-cache": CONNECTION_FLAGS["no-cache"],
    help: CONNECTION_FLAGS.help,
    billing: { type: "string" },
    list: { type: "boolean", default: false },
    tickers: { type: "string" },
    datapoints: { type: "string" },
    out: { type: "string", short: "o" },
  });
  const options = { ...connection(values, env), billing: billingOf(values.billing, env) };
  if (values.list) {
    if (positionals.length > 0) throw new UsageError("fdq new --list takes no template name.");
    return { ...options, list: true, template: "", tickers: [], datapoints: [], out: "" };
  }
  if (positionals.length !== 1)
    throw new UsageError(
      `give one template: fdq new TEMPLATE --tickers AAPL,MSFT -o model.xlsx (the templates: ${names()}).`,
    );
  const template = positionals[0] as string;
  if (!findTemplate(template))
    throw new UsageError(`"${template}" is not a template; the templates are ${names()} (fdq new --list).`);
  if (values.tickers === undefined || splitList(values.tickers).length === 0)
    throw new UsageError(`no tickers given: fdq new ${template} --tickers AAPL,MSFT -o model.xlsx`);
  if (values.out === undefined || values.out.trim() === "")
    throw new UsageError(
      `say where to write the new workbook: fdq new ${template} --tickers ... -o model.xlsx`,
    );
  return {
    ...options,
    list: false,
    template,
    tickers: splitList(values.tickers),
    datapoints: splitList(values.datapoints),
    out: values.out,
  };
}

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Units and requests filling the sheet costs today, priced by the client's estimate; nothing is sent. */
async function priceOf(sheet: TemplateSheet, options: ConnectionOptions) {
  const requests = (await Promise.all(templateCalls(sheet).map((call) => requestsOf(call)))).flat();
  const connection = await openConnection({ ...options, sandbox: false });
  try {
    await connection.client.ready();
    const estimate = connection.client.estimate(requests);
    return {
      units: estimate.units,
      requests: estimate.requestsNeeded,
      baseUrl: connection.baseUrl,
      // The day's coverage list, not in today's cache, decides some tickers' requests: the most it can cost.
      atMost: estimate.ifListed !== undefined,
    };
  } finally {
    await connection.close();
  }
}

export async function runNew(options: NewOptions): Promise<number> {
  if (options.list) {
    process.stdout.write(TEMPLATES.map((t) => `${t.name}\n`).join(""));
    return EXIT.ok.code;
  }
  const template = findTemplate(options.template)!;
  let sheet: TemplateSheet;
  try {
    sheet = buildTemplate(template, { tickers: options.tickers, datapoints: options.datapoints });
  } catch (err) {
    if (err instanceof TemplateParamsError) throw new UsageError(`${err.message}.`);
    throw err;
  }
  if (existsSync(options.out))
    throw new UsageError(
      `${options.out} already exists: fdq new writes a new workbook; give another -o path (fdq refresh fills an existing one).`,
    );
  const bytes = templateWorkbook(sheet);
  let output: AtomicOutput | undefined;
  try {
    output = await AtomicOutput.prepare(options.out, bytes.length);
    const price = await priceOf(sheet, options);
    await output.commit(bytes);
    output = undefined;
    const fdqCells = sheet.cells.filter((c) => c.formula?.includes("FDQ.")).length;
    process.stdout.write(
      `Wrote ${options.out}: template ${template.name}, sheet "${sheet.sheetName}", ${count(fdqCells, "FDQ cell")}.\n` +
        `Filling it will cost ${price.atMost ? "at most " : ""}${count(price.units, "quota unit")} ` +
        `(${count(price.requests, "request")} not in today's cache at ${price.baseUrl}` +
        `${price.atMost ? "; less if the day's ticker coverage list, asked first, does not list some tickers" : ""}).\n` +
        `Fill it: fdq refresh ${options.out} --in-place\n`,
    );
    return EXIT.ok.code;
  } catch (err) {
    if (err instanceof FileProblem) throw new UsageError(err.message);
    if (err instanceof OutputWriteError) {
      process.stderr.write(`fdq new: ${err.message}\n`);
      return EXIT.failure.code;
    }
    throw err;
  } finally {
    await output?.discard();
  }
}
