// Excel's precedence and coercions, which decide numbers without any function.
import { plain, valueOf } from "./compute";

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

  it("dates are Excel serials", () => {
    expect(valueOf("DATE(2023,12,31)")).toBe(45291);
    expect(valueOf("YEAR(45291)*100+MONTH(45291)")).toBe(202312);
    expect(valueOf("EOMONTH(DATE(2024,1,15),1)")).toBe(45351);
  });
});
