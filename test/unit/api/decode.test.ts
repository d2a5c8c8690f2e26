// Decoding every answer variation of wire-notes.md, and datavalue text to the nearest double.
import { BadResponseError, ServiceError, ServiceUnavailableError, toValue } from "../../../src/api";
import { record } from "../../support/hostile-server";
import { FakeFetch, envelope, json, makeClient } from "./fake-fetch";

/** Exact rational p/q (q > 0) with BigInt. */
type Rational = [bigint, bigint];

function decimalRational(text: string): Rational {
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace(/^[+-]/, "").split(".");
  const n = BigInt(whole + fraction) * (negative ? -1n : 1n);
  return [n, 10n ** BigInt(fraction.length)];
}

function doubleRational(d: number): Rational {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = bits & ((1n << 52n) - 1n);
  const m = exponent === 0 ? mantissa : mantissa | (1n << 52n);
  const e = (exponent === 0 ? 1 : exponent) - 1075;
  return e >= 0 ? [sign * m * 2n ** BigInt(e), 1n] : [sign * m, 2n ** BigInt(-e)];
}

function neighbour(d: number, step: 1n | -1n): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  view.setBigUint64(0, view.getBigUint64(0) + step);
  return view.getFloat64(0);
}

const distance = ([a, b]: Rational, [c, d]: Rational): Rational => {
  const n = a * d - c * b;
  return [n < 0n ? -n : n, b * d];
};
const lessOrEqual = ([a, b]: Rational, [c, d]: Rational): boolean => a * d <= c * b;

/** No double lies closer to the decimal text than `d` (checked exactly, not with floating point). */
function isNearestDouble(text: string, d: number): boolean {
  const x = decimalRational(text);
  const here = distance(doubleRational(d), x);
  return [neighbour(d, 1n), neighbour(d, -1n)].every((n) =>
    lessOrEqual(here, distance(doubleRational(n), x)),
  );
}

describe("datavalue text becomes the nearest double", () => {
  const samples = [
    "0.00000000000000000",
    "-1.50000000000000000",
    "0.10000000000000001",
    "-0.12345678901234567",
    "123456789012.12345678901234567",
    "-987654321098.98765432109876543",
    "4503599627370497.50000000000000000",
    "-9007199254740993.00000000000000000",
    "31415926535897.93238462643383279",
    "0.00000000000000001",
  ];

  it.each(samples)("%s", (text) => {
    const value = toValue(text);
    expect(typeof value).toBe("number");
    expect(isNearestDouble(text, value as number)).toBe(true);
  });

  it("has an exactness check that rejects the double one step away", () => {
    expect(isNearestDouble("0.10000000000000001", neighbour(0.1, 1n))).toBe(false);
    expect(
      isNearestDouble("-0.12345678901234567", neighbour(toValue("-0.12345678901234567") as number, -1n)),
    ).toBe(false);
  });

  it("keeps text that is not a decimal number as text", () => {
    expect(toValue("2024-03-01")).toBe("2024-03-01");
    expect(toValue("sector")).toBe("sector");
    expect(toValue("")).toBe("");
  });
});

/** An AAPL ROIC 2023 record of the sandbox's shape. */
const roicRecord = record({ datavalue: "0.45678901234567890" });

describe("envelope and record variations", () => {
  const ask = (answer: Response | (() => Response)) => {
    const fake = new FakeFetch(() => (typeof answer === "function" ? answer() : answer));
    return makeClient(fake, { retry: { attempts: 1 } }).datapoint({
      ticker: "AAPL",
      dataset: "roic",
      name: "ROIC",
      year: 2023,
    });
  };

  it("decodes body as a JSON string, as an object, and a bare {results} to the same values", async () => {
    const asString = await ask(envelope([roicRecord]));
    const asObject = await ask(envelope([roicRecord], true));
    const bare = await ask(json(200, { results: [roicRecord] }));
    expect(asString.value).toBe(0.4567890123456789);
    expect(asObject.value).toBe(asString.value);
    expect(bare.value).toBe(asString.value);
    expect(asObject.record).toEqual(asString.record);
  });

  it("treats filingtype as optional and ignores unknown extra fields", async () => {
    const { filingtype: _omitted, ...withoutFiling } = roicRecord;
    const result = await ask(envelope([{ ...withoutFiling, surprise: { nested: true }, note: "x" }]));
    expect(result.record).toEqual({ ...withoutFiling });
    expect(result.value).toBe(0.4567890123456789);
  });

  it("reads an error status carried inside a 200 envelope", async () => {
    const error = await ask(
      json(200, {
        statusCode: 404,
        body: JSON.stringify({ message: "The requested datapoint was not found." }),
      }),
    ).catch((e: unknown) => e);
    expect((error as Error).name).toBe("DataPointNotFoundError");
  });

  it.each([
    [json(200, { message: "Internal server error" }), "the answer holds no results"],
    [json(200, { statusCode: 200, body: "{not json" }), "the envelope's body is not JSON"],
    [json(200, [1, 2]), "the answer is not a JSON object"],
    [envelope([{ datapoint: "ROIC" }]), "datapoint ROIC has no datavalue"],
    [
      new Response("<!DOCTYPE html><html><head><title>Welcome</title></head></html>", {
        headers: { "content-type": "text/html" },
      }),
      'an HTML page "Welcome" instead of JSON',
    ],
    [new Response(""), "an empty body instead of JSON"],
  ])("turns a 200 that is not the envelope into BadResponseError (%#)", async (answer, detail) => {
    const error = await ask(answer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toBe(
      `The FDQ service sent an answer that could not be read (${detail}). Check the base URL in the FDQ task pane: it must end in /v1.`,
    );
  });

  it("turns an HTML error page into the error of its status with a readable message", async () => {
    const page = (status: number, title: string) => () =>
      new Response(`<html><head><title>${title}</title></head><body>x</body></html>`, {
        status,
        headers: { "content-type": "text/html" },
      });
    const gateway = await ask(page(502, "502 Bad Gateway")).catch((e: unknown) => e);
    expect(gateway).toBeInstanceOf(ServiceUnavailableError);
    expect((gateway as Error).message).toBe(
      'The FDQ service is unavailable (502: an HTML page "502 Bad Gateway"). Try again later, then recalculate.',
    );
    const missing = await ask(page(404, "Not Found")).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ServiceError);
    expect((missing as Error).message).toBe(
      'The FDQ service answered 404 (an HTML page "Not Found"). Check the base URL in the FDQ task pane: it must end in /v1.',
    );
  });
});

describe("other endpoint groups", () => {
  it("reads the metadata name from api_data_key_name or name", async () => {
    const fake = new FakeFetch(() =>
      envelope([
        { api_data_key_name: "ROIC", description: "Return on invested capital", endpoints: "metrics/roic" },
        {
          name: "NOPAT",
          description: "Net operating profit after tax",
          endpoints: "metrics/roic, metrics/ebv",
          x: 1,
        },
      ]),
    );
    const { data } = await makeClient(fake).datapointList();
    expect(data).toEqual([
      { name: "ROIC", description: "Return on invested capital", endpoints: "metrics/roic" },
      {
        name: "NOPAT",
        description: "Net operating profit after tax",
        endpoints: "metrics/roic, metrics/ebv",
      },
    ]);
  });

  it("turns nulls in a coverage record into NA and keeps every field as text", async () => {
    const fake = new FakeFetch(() =>
      envelope([
        {
          ticker: "AAPL",
          name: "Apple Inc.",
          type: "stock",
          sector: "TECHNOLOGYSEC",
          last_trade_date: "2024-03-01",
          sector_name: "Technology",
          subsector: null,
          subsector_name: null,
          industry: "HARDWAREI",
          industry_name: "Hardware",
          subindustry: "NA",
          subindustry_name: null,
          extra: 5,
        },
      ]),
    );
    const { data } = await makeClient(fake).security("stock", "AAPL");
    expect(data).toEqual({
      ticker: "AAPL",
      name: "Apple Inc.",
      type: "stock",
      sector: "TECHNOLOGYSEC",
      last_trade_date: "2024-03-01",
      sector_name: "Technology",
      subsector: "NA",
      subsector_name: "NA",
      industry: "HARDWAREI",
      industry_name: "Hardware",
      subindustry: "NA",
      subindustry_name: "NA",
    });
  });

  it("keeps the text sector datapoints CATEGORY_TYPE and MODEL_DATE as text and makes the others numbers", async () => {
    const values: Record<string, string> = {
      CATEGORY_TYPE: "sector",
      MODEL_DATE: "20240301",
      ROIC_AVG: "-0.01234567890123457",
    };
    const fake = new FakeFetch((url) => {
      const name = url.searchParams.get("datapoint") ?? "";
      return envelope({
        ticker: "TECHNOLOGYSEC",
        name: "Technology",
        prior_year: 0,
        datapoint: name,
        datavalue: values[name],
      });
    });
    const client = makeClient(fake);
    expect((await client.sector({ id: "TECHNOLOGYSEC", name: "CATEGORY_TYPE" })).value).toBe("sector");
    expect((await client.sector({ id: "TECHNOLOGYSEC", name: "MODEL_DATE" })).value).toBe("20240301");
    expect((await client.sector({ id: "TECHNOLOGYSEC", name: "ROIC_AVG", priorYear: 3 })).value).toBe(
      -0.01234567890123457,
    );
  });

  it("reads the rating fields present for the security type and ignores the rest", async () => {
    const fake = new FakeFetch(() =>
      envelope({
        ticker: "XLF",
        name: "Financial Select",
        rating_overall: 3,
        rating_expense_total_annualized: "2",
        z: 9,
      }),
    );
    const { data } = await makeClient(fake).ratings("xlf");
    expect(data).toEqual({
      ticker: "XLF",
      name: "Financial Select",
      ratings: { rating_overall: 3, rating_expense_total_annualized: 2 },
    });
  });
});
