// Excel's precedence and coercions, which decide numbers without any function.
import { compute, plain, valueOf } from "./compute";

describe("operators and coercion", () => {
  it("unary minus binds tighter than ^, and ^ is left-associative", () => {
    expect(valueOf("-2^2")).toBe(4);
    expect(valueOf("2^3^2")).toBe(64);
    expect(valueOf("1+2*3-4/2")).toBe(5);
  });

  it("% divides by 100 and & joins text, TRUE as TRUE", () => {
    expect(valueOf("50%*2")).toBe(1);
    expect(valueOf('"x"&1.5&TRUE')).toBe("x1.5TRUE");
  });

  it("numbers in text take part in arithmetic; other text is #VALUE!", () => {
    expect(valueOf('"3"+1')).toBe(4);
    expect(plain(valueOf('"a"+1'))).toEqual({ error: "#VALUE!" });
  });

  it('comparisons: text case-insensitively, numbers below text below logicals, empty as 0 or ""', () => {
    expect(valueOf('"abc"="ABC"')).toBe(true);
    expect(valueOf('1<"a"')).toBe(true);
    expect(valueOf('"z"<TRUE')).toBe(true);
    expect(valueOf("A1=0")).toBe(true);
    expect(valueOf('A1=""')).toBe(true);
  });

  it("two different numbers that agree to 15 significant digits are not compared but reported", () => {
    expect(() => valueOf("0.1+0.2=0.3")).toThrow("compares 0.30000000000000004 with 0.3");
    expect(() => valueOf('COUNTIF(A1:A2,"<0.3")', { A1: "=0.1+0.2", A2: 1 })).toThrow(
      "agree to 15 significant digits",
    );
    expect(valueOf("0.1+0.25=0.35")).toBe(true);
    expect(valueOf("0.3000000001>0.3")).toBe(true);
  });

  it("ROUND rounds half away from zero on the decimal value (2.675 to 2.68)", () => {
    expect(valueOf("ROUND(2.675,2)")).toBe(2.68);
    expect(valueOf("ROUND(-2.5,0)")).toBe(-3);
    expect(valueOf("ROUNDDOWN(-2.59,1)")).toBe(-2.5);
  });

  it("quoted sheet names, array constants and whitespace are read", () => {
    const cells = { Z1: 0 };
    expect(valueOf("SUM( {1,2;3,4} )", cells)).toBe(10);
    expect(valueOf("INDEX({1,2;3,4},2,1)")).toBe(3);
  });

  it("text functions: TEXT formats, SUBSTITUTE's instance, TEXTJOIN skipping empties", () => {
    expect(valueOf('TEXT(1234.5,"#,##0.00")')).toBe("1,234.50");
    expect(valueOf('TEXT(0.256,"0.0%")')).toBe("25.6%");
    expect(valueOf('SUBSTITUTE("a-b-c","-","+",2)')).toBe("a-b+c");
    expect(valueOf('_xlfn.TEXTJOIN("/",TRUE,A1:A3)', { A1: "x", A3: "z" })).toBe("x/z");
    expect(valueOf('VALUE("1,234.5")')).toBe(1234.5);
  });

  it("a space between two references is the intersection operator; no shared cell is #NULL!", () => {
    const grid = Object.fromEntries(
      ["B", "C", "D", "E", "F"].flatMap((c, i) => [2, 3, 4, 5, 6].map((r) => [`${c}${r}`, (i + 1) * 10 + r])),
    );
    expect(valueOf("SUM(B2:F6 D2:D6)", grid)).toBe(30 * 5 + 20);
    expect(valueOf("SUM(B2:F6  D:D)", grid)).toBe(170);
    expect(valueOf("B2:F6 C4", grid)).toBe(24);
    expect(valueOf("SUM((B2:C3) (C3:D4))", grid)).toBe(23);
    expect(plain(valueOf("SUM(B2:B3 D2:D3)", grid))).toEqual({ error: "#NULL!" });
    expect(valueOf("SUM( B2:B3 , C2 )", grid)).toBe(12 + 13 + 22);
  });

  it("a reference across sheets (Jan:Mar!B2) is reported, not read as one sheet or as #REF!", () => {
    const sheets = { Jan: { B2: 1 }, Feb: { B2: 2 }, Mar: { B2: 3 } };
    for (const f of ["SUM(Jan:Mar!B2)", "SUM('Jan:Mar'!B2)", "SUM(Jan:Mar!B2:B3)"]) {
      const { results } = compute({ sheets: { ...sheets, S: { A1: `=${f}` } } });
      expect(results[0]).toMatchObject({
        kind: "skipped",
        reason: expect.stringMatching(/^uses a reference across several sheets/),
      });
    }
  });

  it("the union operator (A1,B2) is reported, not guessed", () => {
    expect(() => valueOf("SUM((A1,A2))", { A1: 1, A2: 2 })).toThrow(/union operator/);
  });

  it("@ and _xlfn.SINGLE read a range by implicit intersection", () => {
    const cells = { A99: 1, A100: 5, A101: 7 };
    expect(valueOf("@A99:A101*2", cells)).toBe(10);
    expect(valueOf("_xlfn.SINGLE(A99:A101)*2", cells)).toBe(10);
    expect(plain(valueOf("_xlfn.SINGLE(A1:A3)", cells))).toEqual({ error: "#VALUE!" });
  });

  it("text Excel reads as a date, time, fraction or currency is reported; text it cannot read is #VALUE!", () => {
    expect(valueOf('"1,234"+1')).toBe(1235);
    expect(valueOf('" 12.5% "*2')).toBe(0.25);
    for (const text of [
      "2023-01-05",
      "5-Jan",
      "Jan 5, 2023",
      "9:30",
      "3 PM",
      "1 1/2",
      "$1,234",
      "(100)",
      "1,2",
    ]) {
      expect(() => valueOf(`"${text}"+0`)).toThrow(`reads the text "${text}" as a number`);
    }
    for (const text of ["FY2023", "Q1 2023", "n/a", "TRUE"])
      expect(plain(valueOf(`"${text}"+0`))).toEqual({ error: "#VALUE!" });
  });

  it("TEXT with hours, minutes, seconds or weekday names in a date format is reported, not half applied", () => {
    expect(valueOf('TEXT(45000,"yyyy-mm-dd")')).toBe("2023-03-15");
    expect(valueOf('TEXT(45000,"mmm d, yyyy")')).toBe("Mar 15, 2023");
    for (const format of ["yyyy-mm-dd hh:mm", "dddd", "h:mm AM/PM", '"Q"yyyy']) {
      expect(() => valueOf(`TEXT(45000.5,"${format.replace(/"/g, '""')}")`)).toThrow(
        "uses TEXT with the format",
      );
    }
  });

  it("a number too small or too large for Excel's plain text form is reported when turned into text", () => {
    expect(valueOf('0.0001&""')).toBe("0.0001");
    expect(valueOf('1/3&""')).toBe("0.333333333333333");
    expect(valueOf('123456789012345&""')).toBe("123456789012345");
    expect(() => valueOf('0.00001&""')).toThrow("turns the number 0.00001 into text");
    expect(() => valueOf('10^15&""')).toThrow("turns the number 1000000000000000 into text");
  });

  it("dates are Excel serials", () => {
    expect(valueOf("DATE(2023,12,31)")).toBe(45291);
    expect(valueOf("YEAR(45291)*100+MONTH(45291)")).toBe(202312);
    expect(valueOf("EOMONTH(DATE(2024,1,15),1)")).toBe(45351);
  });
});
