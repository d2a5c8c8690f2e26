import {
  changesToCsv,
  changesToJson,
  classify,
  compareCells,
  countByKind,
  csvField,
  percentText,
  periodMoved,
  reportValue,
  sameNumber,
  serializeChanges,
  type CellObservation,
} from "../../../src/workbook/changes/changes";

const at = (
  cell: string,
  old: unknown,
  now: unknown,
  extra: Partial<CellObservation> = {},
): CellObservation => ({
  sheet: "Model",
  cell,
  formula: `=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)`,
  old: reportValue(old),
  new: reportValue(now),
  ...extra,
});

describe("the change report of a refresh", () => {
  it("reads Office's error texts as errors and empty cells as empty", () => {
    expect(reportValue("#N/A")).toEqual({ error: "#N/A" });
    expect(reportValue("#BUSY!")).toEqual({ error: "#BUSY!" });
    expect(reportValue("")).toBeNull();
    expect(reportValue("N/A")).toBe("N/A");
    expect(reportValue(1.5)).toBe(1.5);
  });

  it("does not count numbers that agree to 15 significant digits as a change", () => {
    expect(sameNumber(52716962727.1662, 52716962727.16621)).toBe(true);
    expect(sameNumber(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameNumber(52716962727.1662, 52716962727.1672)).toBe(false);
    expect(sameNumber(1, 1.00000000000001)).toBe(false);
    expect(compareCells([at("A1", 0.1 + 0.2, 0.3)])).toEqual([]);
  });

  it("names each kind: restated, new period, new value, now an error", () => {
    expect(classify(1, 2)).toBe("restated");
    expect(classify(1, 2, { before: "FY2023", after: "FY2024" })).toBe("new period");
    expect(classify(1, 2, { before: "FY2023", after: "FY2023" })).toBe("restated");
    expect(classify({ error: "#N/A" }, 2)).toBe("new value");
    expect(classify(null, 2)).toBe("new value");
    expect(classify(2, { error: "#N/A" })).toBe("now an error");
    expect(classify(null, { error: "#N/A" })).toBe("now an error");
    expect(classify({ error: "#N/A" }, { error: "#VALUE!" })).toBeUndefined();
    expect(classify("Apple", "Apple")).toBeUndefined();
    expect(classify("Apple", "Apple Inc.")).toBe("restated");
  });

  it("treats an unknown period on either side as no move (the relative-period hook)", () => {
    expect(periodMoved(undefined, "FY2024")).toBe(false);
    expect(periodMoved("FY2023", undefined)).toBe(false);
    expect(periodMoved("FQ3 2024", "FQ4 2024")).toBe(true);
  });

  it("sorts by size of change, biggest first; changes without a size last, in reading order", () => {
    const changes = compareCells([
      at("A1", 100, 101),
      at("A2", "#N/A", 5),
      at("A3", 10, 5),
      at("A4", 0, 3),
      at("A5", 7, "#N/A"),
      at("A6", 1, 1),
    ]);
    expect(changes.map((c) => [c.cell, c.kind, c.relativeChange])).toEqual([
      ["A4", "restated", null],
      ["A3", "restated", -0.5],
      ["A1", "restated", 0.01],
      ["A2", "new value", null],
      ["A5", "now an error", null],
    ]);
    expect(countByKind(changes)).toEqual({ restated: 3, "new period": 0, "new value": 1, "now an error": 1 });
  });

  it("writes JSON with sheet, cell, formula, old, new, kind, relativeChange and the period when known", () => {
    const json = JSON.parse(
      changesToJson(
        compareCells([
          at("B2", 2, 3, { period: { before: "FY2023", after: "FY2024" } }),
          at("B3", 1, "#N/A"),
        ]),
      ),
    ) as unknown[];
    expect(json).toEqual([
      {
        sheet: "Model",
        cell: "B2",
        formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
        old: 2,
        new: 3,
        kind: "new period",
        relativeChange: 0.5,
        period: "FY2024",
      },
      {
        sheet: "Model",
        cell: "B3",
        formula: '=FDQ.DATAPOINT("AAPL","roic","ROIC",2023)',
        old: 1,
        new: "#N/A",
        kind: "now an error",
        relativeChange: null,
      },
    ]);
  });

  it("writes CSV (RFC 4180) in which no field opens as a formula", () => {
    const csv = changesToCsv(compareCells([at("C1", 4, 5), at("C2", "=cmd|' /C calc'!A0", 'say "hi", -1')]));
    expect(csv.split("\r\n")).toEqual([
      "sheet,cell,formula,old,new,kind,relativeChange,period",
      `Model,C1,"'=FDQ.DATAPOINT(""AAPL"",""roic"",""ROIC"",2023)",4,5,restated,0.25,`,
      `Model,C2,"'=FDQ.DATAPOINT(""AAPL"",""roic"",""ROIC"",2023)",'=cmd|' /C calc'!A0,"say ""hi"", -1",restated,,`,
      "",
    ]);
    expect(csvField(-1.5)).toBe("-1.5");
    expect(csvField("-1.5")).toBe("'-1.5");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField(true)).toBe("TRUE");
  });

  it("chooses CSV or JSON by the file's extension", () => {
    const changes = compareCells([at("A1", 1, 2)]);
    expect(serializeChanges(changes, "out/CHANGES.CSV")).toBe(changesToCsv(changes));
    expect(serializeChanges(changes, "changes.json")).toBe(changesToJson(changes));
  });

  it("words the relative change as a percentage", () => {
    expect(percentText(0.125)).toBe("+13%");
    expect(percentText(-0.034)).toBe("-3.4%");
    expect(percentText(0.0001)).toBe("+0.01%");
    expect(percentText(null)).toBe("");
  });
});
