// Structured references resolve against the table's ref, header and totals rows and its columns.
import type { Table } from "../../../../src/workbook/model";
import { compute, plain } from "./compute";

const table: Table = {
  name: "PeTbl",
  sheet: "S",
  ref: "A1:D5",
  headerRowCount: 1,
  totalsRowCount: 1,
  columns: [{ name: "Ticker" }, { name: "ROIC" }, { name: "Pe Ratio" }, { name: "Score" }],
};
const cells = {
  A1: "Ticker",
  B1: "ROIC",
  C1: "Pe Ratio",
  D1: "Score",
  A2: "AAPL",
  B2: 0.3,
  C2: 28,
  A3: "MSFT",
  B3: 0.2,
  C3: 33,
  A4: "NFLX",
  B4: 0.1,
  C4: 40,
  A5: "Total",
  B5: 99,
};

const at = (address: string, f: string): unknown =>
  compute({ sheets: { S: { ...cells, [address]: `=${f}` } }, tables: [table] }).values.get(`S!${address}`);

describe("structured references", () => {
  it("Tbl[Col] is the column's data rows (header and totals left out)", () => {
    expect(at("F1", "SUM(PeTbl[ROIC])")).toBeCloseTo(0.6, 12);
  });

  it("a column name with a space is read with or without inner brackets", () => {
    expect(at("F1", "SUM(PeTbl[[Pe Ratio]])")).toBe(101);
    expect(at("F1", "SUM(PeTbl[Pe Ratio])")).toBe(101);
  });

  it("[#This Row] and [@Col] (inside the table) read the formula's own row; outside the data rows it is #VALUE!", () => {
    expect(at("D3", "PeTbl[[#This Row],[ROIC]]*100")).toBe(20);
    expect(at("D4", "[@ROIC]*100")).toBeCloseTo(10, 12);
    expect(plain(at("D9", "PeTbl[[#This Row],[ROIC]]") as never)).toEqual({ error: "#VALUE!" });
  });

  it("#Totals, #Headers and #All name their rows", () => {
    expect(at("F1", "PeTbl[[#Totals],[ROIC]]")).toBe(99);
    expect(at("F1", "PeTbl[[#Headers],[ROIC]]")).toBe("ROIC");
    expect(at("F1", "ROWS(PeTbl[#All])")).toBe(5);
    expect(at("F1", "COLUMNS(PeTbl[#All])")).toBe(4);
  });

  it("a range of columns [[A]:[B]] covers the columns between", () => {
    expect(at("F1", "COLUMNS(PeTbl[[ROIC]:[Pe Ratio]])")).toBe(2);
  });

  it("the table's name alone is its data", () => {
    expect(at("F1", "ROWS(PeTbl)")).toBe(3);
  });
});
