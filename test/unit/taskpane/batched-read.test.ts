// Workbook reads split into blocks that each answer under Excel on the web's 5 MB cap.
import {
  FIRST_BYTES_PER_CELL,
  PAYLOAD_LIMIT_BYTES,
  READ_BUDGET_BYTES,
  answerBytes,
  chunks,
  nextBlock,
  readInBlocks,
  type Box,
  type BlockReader,
} from "../../../src/taskpane/office/batched-read";

/** A sheet of `rows` x `columns` cells, each holding `text`, read like Excel on the web: over the cap fails. */
function fakeSheet(text: (row: number, column: number) => string): BlockReader & { boxes: Box[] } {
  const boxes: Box[] = [];
  return {
    boxes,
    read: (box) => {
      const formulas = Array.from({ length: box.rows }, (_, i) =>
        Array.from({ length: box.columns }, (_, j) => text(box.row + i, box.column + j)),
      );
      if (answerBytes(formulas, formulas) > PAYLOAD_LIMIT_BYTES) {
        return Promise.reject(
          Object.assign(new Error("too big"), { code: "ResponsePayloadSizeLimitExceeded" }),
        );
      }
      boxes.push(box);
      return Promise.resolve({ formulas, values: formulas });
    },
  };
}

/** Every cell of the area is read exactly once. */
function expectTiled(boxes: readonly Box[], area: Box): void {
  const seen = new Map<string, number>();
  for (const b of boxes)
    for (let r = b.row; r < b.row + b.rows; r++)
      for (let c = b.column; c < b.column + b.columns; c++)
        seen.set(`${r},${c}`, (seen.get(`${r},${c}`) ?? 0) + 1);
  expect(seen.size).toBe(area.rows * area.columns);
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
}

describe("reading a sheet in blocks under the 5 MB cap", () => {
  it("plans the first block from the assumed cell size, within the area", () => {
    const area = { row: 2, column: 1, rows: 100_000, columns: 10 };
    const box = nextBlock(area, 2, 1, FIRST_BYTES_PER_CELL, READ_BUDGET_BYTES);
    expect(box).toEqual({ row: 2, column: 1, rows: Math.floor(READ_BUDGET_BYTES / (10 * 160)), columns: 10 });
    // Near the end of the area, the block stops at its last row.
    expect(nextBlock(area, 100_000, 1, 160, READ_BUDGET_BYTES).rows).toBe(2);
  });

  it("splits a very wide row into column blocks", () => {
    const area = { row: 0, column: 0, rows: 1, columns: 16_384 };
    const box = nextBlock(area, 0, 0, 1_000, 2_000_000);
    expect(box).toEqual({ row: 0, column: 0, rows: 1, columns: 2_000 });
  });

  it("reads an 11 MB sheet whole, every block's answer under the cap, sized from what it measured", async () => {
    const area = { row: 0, column: 0, rows: 3_000, columns: 10 };
    const sheet = fakeSheet((r) => `${"x".repeat(190)} ${r}`);
    const blocks = await readInBlocks("Notes", area, sheet);
    expectTiled(sheet.boxes, area);
    expect(blocks.every((b) => answerBytes(b.formulas, b.values) < PAYLOAD_LIMIT_BYTES)).toBe(true);
    expect(blocks.reduce((n, b) => n + answerBytes(b.formulas, b.values), 0)).toBeGreaterThan(11_000_000);
    expect(blocks[0]).toMatchObject({ sheet: "Notes", row: 0, column: 0 });
  });

  it("reads again as halves a block whose cells turn out far longer than measured before", async () => {
    const area = { row: 0, column: 0, rows: 2_000, columns: 4 };
    // Short cells first, then rows of 4,000-character notes: the block planned from short cells is too big.
    const sheet = fakeSheet((r) => (r < 1_000 ? "a" : "n".repeat(4_000)));
    const blocks = await readInBlocks("S", area, sheet);
    expectTiled(sheet.boxes, area);
    expect(blocks.length).toBeGreaterThan(2);
  });

  it("passes on an error that is not about size", async () => {
    const reader: BlockReader = { read: () => Promise.reject(new Error("ItemNotFound")) };
    await expect(readInBlocks("S", { row: 0, column: 0, rows: 3, columns: 3 }, reader)).rejects.toThrow(
      "ItemNotFound",
    );
  });

  it("chunks addresses", () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 2)).toEqual([]);
  });
});
