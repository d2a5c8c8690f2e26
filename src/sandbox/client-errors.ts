// Requests that Node's HTTP parser rejects before the app sees them (request line and headers over the
// size limit, a malformed request line or header, a request that takes too long to arrive). Node would
// answer them with a bare status line and an empty body; the sandbox answers them like every other
// error: a JSON object with a `message`, and (unless CORS is off) the CORS header so that the task pane can
// read it.
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { allowedOrigin, type CorsMode } from "./cors-origin";

/**
 * Request line plus headers, in bytes: Node's default, fixed here so that a `--max-http-header-size`
 * flag cannot move it. A URL longer than this answers 431.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

interface ParserError extends Error {
  readonly code?: string;
  /** The bytes the parser was reading when it failed (Node sets it for parser errors). */
  readonly rawPacket?: Buffer;
}

const ANSWERS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"],
};
const BAD_REQUEST = [400, "Bad Request"] as const;

/** The Origin header, when it is among the bytes the parser had read. */
function originIn(raw: Buffer | undefined): string | undefined {
  const match = raw ? /\r\norigin:[ \t]*([^\r\n]*)/i.exec(raw.toString("latin1")) : null;
  return match?.[1]?.trim();
}

/** The answer to a request the parser rejected, as raw HTTP/1.1 text. */
function clientErrorResponse(err: ParserError, cors: CorsMode): string {
  const [status, message] = ANSWERS[err.code ?? ""] ?? BAD_REQUEST;
  const body = JSON.stringify({ message });
  return [
    `HTTP/1.1 ${status} ${message}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    // allowedOrigin echoes only a localhost origin, so no header text from the request reaches the answer.
    ...(cors === "off"
      ? []
      : [`Access-Control-Allow-Origin: ${allowedOrigin(originIn(err.rawPacket))}`, "Vary: Origin"]),
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

export function answerClientErrors(server: Server, cors: CorsMode = "permissive"): void {
  server.on("clientError", (err: ParserError, socket: Duplex) => {
    // Node keeps the response being written on a keep-alive socket in _httpMessage: answering then would
    // interleave two responses, so (like Node's own handler) the socket is only closed.
    const busy = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
    if (err.code === "ECONNRESET" || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err, cors));
  });
}
