// One HTTP POST to an outgoing-webhook bot's URL, and nothing else: redirects are not followed
// (a 3xx is the answer), the whole exchange has a time limit, and the answer is read up to a size
// cap. The outcome is a value, never an exception, so the caller decides about retries.

export type OutgoingResponse =
  | { kind: "answered"; status: number; body: string }
  /** Retried: the bot's server may come back. */
  | { kind: "timeout" }
  | { kind: "connection"; error: string }
  /** Not retried: the bot's server answered, with more than the cap. */
  | { kind: "tooLarge"; status: number }
  | { kind: "aborted" };

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Aborts the request at once (server shutdown). */
  signal: AbortSignal;
}

class TimedOut extends Error {}

export async function postOutgoing(req: OutgoingRequest): Promise<OutgoingResponse> {
  const controller = new AbortController();
  const onShutdown = () => controller.abort();
  req.signal.addEventListener("abort", onShutdown);
  const timer = setTimeout(() => controller.abort(new TimedOut()), req.timeoutMs);
  try {
    const res = await fetch(req.url, {
      method: "POST",
      headers: req.headers,
      body: req.body,
      redirect: "manual",
      signal: controller.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > req.maxResponseBytes) {
          controller.abort();
          return { kind: "tooLarge", status: res.status };
        }
        chunks.push(Buffer.from(value));
      }
    }
    return { kind: "answered", status: res.status, body: Buffer.concat(chunks).toString("utf8") };
  } catch (err) {
    if (req.signal.aborted) return { kind: "aborted" };
    if (controller.signal.reason instanceof TimedOut) return { kind: "timeout" };
    // fetch reports the network's reason as the cause (ECONNREFUSED, ENOTFOUND…).
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { kind: "connection", error: cause?.code ?? cause?.message ?? (err as Error).message };
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener("abort", onShutdown);
  }
}
