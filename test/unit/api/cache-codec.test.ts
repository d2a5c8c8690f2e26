// The persisted form of a datapoint-records answer: one entry per answer that restores every record exactly,
// also records that differ from the answer's shared fields, and refuses anything this version does not write.
import { RecordsAnswer, decodeValue, encodeValue } from "../../../src/api/cache-codec";
import { toValue } from "../../../src/api/decode";
import type { DatapointRecord } from "../../../src/api/types";

const record = (
  datapoint: string,
  datavalue: string,
  extra: Partial<DatapointRecord> = {},
): DatapointRecord => ({
  ticker: "BF.B",
  year: 2023,
  period: 2,
  periodtype: "QUARTERLY",
  periodstring: "QUARTERLY",
  datapoint,
  datavalue,
  ...extra,
});

/** Through JSON and back, as the store does. */
const roundTrip = (answer: RecordsAnswer) =>
  decodeValue(JSON.parse(JSON.stringify(encodeValue(answer))), toValue) as RecordsAnswer;

describe("records answer codec", () => {
  it("restores every record and value of an answer, in order", () => {
    const records = [
      record("ROIC", "0.12345678901234567", { filingtype: "10-Q" }),
      record("MODEL_DATE", "2024-02-01", { filingtype: "10-Q" }),
    ];
    const restored = roundTrip(
      RecordsAnswer.fromRecords(
        records,
        records.map((r) => toValue(r.datavalue)),
        toValue,
      ),
    );
    expect(restored.records()).toEqual(records);
    expect(restored.values()).toEqual([Number("0.12345678901234567"), "2024-02-01"]);
    expect(restored.indexOf("MODEL_DATE")).toBe(1);
    expect(restored.indexOf("NOPAT")).toBe(-1);
  });

  it("keeps a record's own ticker, period fields and filing type where they differ from the others", () => {
    const records = [
      record("A", "1", { filingtype: "10-K" }),
      record("B", "2", { ticker: "BF-B", year: 2022, periodstring: "Q2" }),
      record("C", "3", { filingtype: "10-Q" }),
    ];
    const restored = roundTrip(RecordsAnswer.fromRecords(records, [1, 2, 3], toValue));
    expect(restored.records()).toEqual(records);
    expect(restored.records()[1]).not.toHaveProperty("filingtype");
  });

  it("finds a name of a long answer at its first position, before and after the answer indexes its names", () => {
    const names = Array.from({ length: 20 }, (_, i) => `N${i}`);
    names[15] = "N3"; // a repeated name: the first one answers, as a search would
    const records = names.map((n, i) => record(n, String(i)));
    const answer = roundTrip(
      RecordsAnswer.fromRecords(
        records,
        records.map((_, i) => i),
        toValue,
      ),
    );
    const asked = ["N3", "N19", "MISSING", "N0", "N3", "N19", "MISSING", "N0", "N3"];
    expect(asked.map((n) => answer.indexOf(n))).toEqual([3, 19, -1, 0, 3, 19, -1, 0, 3]);
  });

  it.each([
    ["a names list longer than the values", [4, ["T", 2023, 5, "ANNUAL", "ANNUAL"], ["A", "B"], ["1"], null]],
    ["an unknown period type", [4, ["T", 2023, 5, "WEEKLY", "WEEKLY"], ["A"], ["1"], null]],
    ["a value that is not text", [4, ["T", 2023, 5, "ANNUAL", "ANNUAL"], ["A"], [1], null]],
    ["filing types of another length", [4, ["T", 2023, 5, "ANNUAL", "ANNUAL"], ["A"], ["1"], ["x", "y"]]],
    ["a version-1 record entry", [0, "1", "10-K"]],
  ])("refuses %s", (_, encoded) => {
    expect(decodeValue(encoded, toValue)).toBeUndefined();
  });
});
