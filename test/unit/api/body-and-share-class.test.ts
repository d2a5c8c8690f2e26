// The bounded body read (a stream, cancelled past the bound) and which ticker may answer for which.
import { BodyTooLarge, readBody, sizeText } from "../../../src/api/body";
import { answersTicker } from "../../../src/api/share-class";
import { KEY_PLACEHOLDER, Redactor } from "../../../src/api/redact";

/** A response whose body is `chunks` 1 KB chunks, counting how many were pulled and whether it was cancelled. */
function chunked(chunks: number, headers: Record<string, string> = {}) {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled === chunks) return controller.close();
      state.pulled++;
      controller.enqueue(new Uint8Array(1024).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), state };
}

describe("readBody", () => {
  it("reads a body up to the bound whole", async () => {
    const { response, state } = chunked(4);
    expect(await readBody(response, 4096)).toBe("a".repeat(4096));
    expect(state).toEqual({ pulled: 4, cancelled: false });
  });

  it("cancels the stream as soon as more than the bound arrived, without reading the rest", async () => {
    const { response, state } = chunked(50_000);
    await expect(readBody(response, 4096)).rejects.toEqual(new BodyTooLarge(4096));
    // The 5th KB is one too many; the stream pulls one chunk ahead of the reader (its queue of 1).
    expect(state).toEqual({ pulled: 6, cancelled: true });
  });

  it("refuses a declared Content-Length over the bound before reading", async () => {
    const { response, state } = chunked(50_000, { "content-length": String(50_000 * 1024) });
    await expect(readBody(response, 4096)).rejects.toThrow("larger than 4 KB");
    expect(state).toEqual({ pulled: 0, cancelled: true });
  });

  it("decodes UTF-8 split across chunks", async () => {
    const bytes = new TextEncoder().encode("é€😀");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(Uint8Array.of(b));
        controller.close();
      },
    });
    expect(await readBody(new Response(body), 100)).toBe("é€😀");
  });

  it("words sizes for messages", () => {
    expect([sizeText(4 * 1024 * 1024), sizeText(1536), sizeText(900)]).toEqual([
      "4 MB",
      "1.5 KB",
      "900 bytes",
    ]);
  });
});

describe("answersTicker (spec fact 5: a second share class answers with the primary ticker)", () => {
  it.each([
    ["AAPL", "AAPL", true],
    ["aapl", "AAPL", true],
    ["BF.A", "BF.B", true],
    ["BRK.A", "BRK-B", true],
    ["HEI", "HEI.A", true],
    ["MSFT", "AAPL", false],
    ["AAP", "AAPL", false],
    ["GOOGL", "GOOG", false],
    ["ENRN:2", "ENRN:1", false],
    ["ENRN", "ENRN:1", false],
  ])("%s for %s: %s", (answered, asked, ok) => {
    expect(answersTicker(answered, asked)).toBe(ok);
  });
});

describe("the redactor on long runs", () => {
  it("finds the key cut by the end of a 4096-character piece of one run", () => {
    const key = "Zq7Fk2pW9xLmC4tRb8sY1vD";
    const r = new Redactor(key);
    for (const at of [4080, 4090, 4096, 8170]) {
      const text = `${"A".repeat(at)}${key}${"A".repeat(9000)}`;
      expect(r.redact(text)).toBe(`${"A".repeat(at)}${KEY_PLACEHOLDER}${"A".repeat(9000)}`);
    }
  });
});
