// The Node HTTP server around the Koa app. Requests Node itself refuses before Koa sees them
// (oversized headers, malformed request lines, a body longer than its Content-Length) would get
// Node's bare text answers; they get the JSON error envelope like every other answer.
import http, { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type Koa from "koa";

export function createHttpServer(app: Koa): Server {
  const server = http.createServer(app.callback());
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket));
  return server;
}

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const headersTooLarge = err.code === "HPE_HEADER_OVERFLOW";
  const status = headersTooLarge ? 431 : 400;
  const body = JSON.stringify(
    headersTooLarge
      ? {
          result: "error",
          msg: `Request headers (URL included) are too large: the limit is ${http.maxHeaderSize} bytes`,
          code: "REQUEST_HEADERS_TOO_LARGE",
          limit: http.maxHeaderSize,
        }
      : { result: "error", msg: "Malformed HTTP request", code: "BAD_REQUEST" },
  );
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
