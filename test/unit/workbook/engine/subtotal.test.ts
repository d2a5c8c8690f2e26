// SUBTOTAL: the 101-111 forms leave out hidden rows; the 1-11 forms leave out only the rows a filter hides, which
// a file does not tell apart from rows hidden by hand, so over a hidden row they are reported.
import { compute, valueOf } from "./compute";

const cells = { A1: 1, A2: 10, A3: 100, A4: { f: "SUBTOTAL(9,A1:A3)", v: 111 } };

describe("SUBTOTAL", () => {
  it("sums a range, leaving out the SUBTOTALs inside it", () => {
    expect(valueOf("SUBTOTAL(9,A1:A4)", cells)).toBe(111);
    expect(valueOf("SUBTOTAL(109,A1:A4)", cells)).toBe(111);
  });

  it("101-111 leave out every hidden row", () => {
    const { values } = compute({
      sheets: { S: { ...cells, B1: "=SUBTOTAL(109,A1:A3)", B2: "=SUBTOTAL(102,A1:A3)" } },
      hiddenRows: { S: [2] },
    });
    expect([values.get("S!B1"), values.get("S!B2")]).toEqual([101, 2]);
  });

  it("1-11 over a hidden row are reported, naming the row; over visible rows they are computed", () => {
    const { results, values } = compute({
      sheets: { S: { ...cells, B1: "=SUBTOTAL(9,A1:A3)", B2: "=SUBTOTAL(9,A3:A4)" } },
      hiddenRows: { S: [2] },
    });
    expect(results.find((r) => r.cell.row === 1 && r.cell.col === 2)).toMatchObject({
      kind: "skipped",
      reason:
        "uses SUBTOTAL(9) over a hidden row (S!2:2): Excel leaves it out if a filter hid it, and the file does not say",
      functions: ["SUBTOTAL"],
    });
    expect(values.get("S!B2")).toBe(100);
  });
});
