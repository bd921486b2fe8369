// The Node HTTP server around the Koa app. Requests Node itself refuses before Koa sees them
// (oversized headers, malformed request lines, a body longer than its Content-Length) would get
// Node's bare text answers; they get the JSON error envelope like every other answer. A client that
// sends its request too slowly (slowloris, a stalled upload) is answered 408 and disconnected. An
// HTTP/1.1 request without a Host header is answered here too, before the app sees it.
import http, { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type Koa from "koa";
import type { Config } from "../config";

type TimeLimits = Pick<Config["limits"], "headersTimeoutMs" | "requestTimeoutMs">;
/** The timeouts Node is given (the headers' is capped by the request's, as Node requires). */
interface Timeouts {
  headersTimeout: number;
  requestTimeout: number;
}

export function createHttpServer(app: Koa, limits: TimeLimits): Server {
  const requestTimeout = limits.requestTimeoutMs;
  const timeouts: Timeouts = { headersTimeout: Math.min(limits.headersTimeoutMs, requestTimeout), requestTimeout };
  const server = http.createServer(
    {
      ...timeouts,
      // Node checks the two timeouts on this interval (30 s by default): a tenth of the shorter
      // one keeps a limit within 10% of its value.
      connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(timeouts.headersTimeout / 10))),
      // Node's own check answers a bare 400; ours (below) answers with the envelope.
      requireHostHeader: false,
    },
    requireHost(app.callback()),
  );
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(err, socket, timeouts));
  return server;
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2); HTTP/1.0 requests may go without. */
function requireHost(handle: http.RequestListener): http.RequestListener {
  return (req, res) => {
    if (req.headers.host !== undefined || req.httpVersion === "1.0") return handle(req, res);
    const body = JSON.stringify({
      result: "error",
      msg: `An HTTP/${req.httpVersion} request must have a Host header`,
      code: "BAD_REQUEST",
    });
    res.writeHead(400, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      Connection: "close",
    });
    res.end(body);
  };
}

function errorBody(err: NodeJS.ErrnoException, limits: Timeouts) {
  if (err.code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      msg: `Request headers (URL included) are too large: the limit is ${http.maxHeaderSize} bytes`,
      code: "REQUEST_HEADERS_TOO_LARGE",
      limit: http.maxHeaderSize,
    };
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return {
      status: 408,
      msg:
        `Request not received in time: the limits are ${limits.headersTimeout} ms for its headers ` +
        `and ${limits.requestTimeout} ms for all of it`,
      code: "REQUEST_TIMEOUT",
      limit: limits.requestTimeout,
    };
  return { status: 400, msg: "Malformed HTTP request", code: "BAD_REQUEST" };
}

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, limits: Timeouts): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, ...fields } = errorBody(err, limits);
  const body = JSON.stringify({ result: "error", ...fields });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
