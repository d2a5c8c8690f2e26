// The templates (src/workbook/templates): every FDQ call of every template passes the functions' own argument
// checks (requestsOf refuses what a cell would show as #VALUE!), asks only relative periods, and each template
// refuses tickers it cannot take with the template's message.
import { requestsOf } from "../../../src/functions/requests";
import {
  buildTemplate,
  TEMPLATES,
  templateCalls,
  TemplateParamsError,
} from "../../../src/workbook/templates";

const tickersFor = (max: number): string[] => ["AAPL", "MSFT", "NFLX"].slice(0, Math.min(max, 3));

describe("the templates", () => {
  it.each(TEMPLATES.map((t) => [t.name, t] as const))(
    "%s: every FDQ call is one the functions accept",
    async (_, t) => {
      const sheet = buildTemplate(t, { tickers: tickersFor(t.tickers.max) });
      const calls = templateCalls(sheet);
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) await expect(requestsOf(call)).resolves.not.toHaveLength(0);
    },
  );

  it.each(TEMPLATES.map((t) => [t.name, t] as const))(
    "%s: asks relative periods only, never a fixed year",
    (_, t) => {
      const sheet = buildTemplate(t, { tickers: tickersFor(t.tickers.max) });
      const years = templateCalls(sheet)
        .filter((c) => c.name === "DATAPOINT")
        .map((c) => c.args[3]);
      for (const year of years) expect(String(year)).toMatch(/^FY(0|-[1-9])$/);
    },
  );

  it("refuses too many tickers, too few, and a ticker of another form, saying so", () => {
    const by = (name: string) => TEMPLATES.find((t) => t.name === name)!;
    expect(() => buildTemplate(by("roic-economic-earnings"), { tickers: ["AAPL", "MSFT"] })).toThrow(
      new TemplateParamsError("template roic-economic-earnings takes one ticker, not 2"),
    );
    expect(() => buildTemplate(by("peer-comparison"), { tickers: ["AAPL", "aapl"] })).toThrow(
      "template peer-comparison needs at least 2 different tickers, not 1",
    );
    expect(() => buildTemplate(by("ratings-dashboard"), { tickers: [] })).toThrow(
      "template ratings-dashboard needs a ticker",
    );
    expect(() => buildTemplate(by("ratings-dashboard"), { tickers: ["AAPL<"] })).toThrow(
      '"AAPL<" is not a ticker',
    );
  });
});
