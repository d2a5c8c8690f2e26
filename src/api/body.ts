// Reading a response body within a size bound: as a stream, byte count checked chunk by chunk, so an
// answer of any size costs at most the bound in memory (never the whole thing, never a string too long
// for the engine).

/** "4 MB", "512 KB", "900 bytes": a size for messages. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** The body was longer than the bound; its stream was cancelled. */
export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${sizeText(maxBytes)}`);
  }
}

/**
 * The body of `response` as UTF-8 text (what Response.text() answers), or a BodyTooLarge once more than
 * `maxBytes` arrived (a declared Content-Length over the bound fails before reading). The stream is
 * cancelled when the read fails or `signal` aborts (the attempt timed out), so the connection is let go.
 * `onChunk` is told of each chunk's bytes before it is kept, and may refuse it by throwing (the gateway's
 * budget for all bodies in flight).
 */
export async function readBody(
  response: Response,
  maxBytes: number,
  signal?: AbortSignal,
  onChunk?: (bytes: number) => void,
): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const body = response.body;
  if (declared > maxBytes) {
    await body?.cancel().catch(() => undefined);
    throw new BodyTooLarge(maxBytes);
  }
  if (!body) {
    // No stream (a fetch without ReadableStream, or no body at all): read whole, then bounded after all.
    const text = await response.text();
    if (text.length > maxBytes) throw new BodyTooLarge(maxBytes);
    return text;
  }
  const reader = body.getReader();
  const stop = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener("abort", stop);
  try {
    const decoder = new TextDecoder();
    const parts: string[] = [];
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new BodyTooLarge(maxBytes);
      onChunk?.(value.byteLength);
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join("");
  } catch (error) {
    stop();
    throw error;
  } finally {
    signal?.removeEventListener("abort", stop);
  }
}
