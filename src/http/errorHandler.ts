// The only try/catch around the stack: ApiError → Zulip error envelope; anything else → logged 500.
import type { Context, Next } from "koa";
import { ApiError, Errors } from "../errors";
import { JsonTooDeepError } from "../json";

export interface ErrorHandlerOptions {
  /** Recognises "the database is unreachable" errors (answered 503, not 500). */
  isDatabaseUnreachable?: (err: unknown) => boolean;
  /** Told about each such error (logs the outage once). */
  onDatabaseUnreachable?: (err: unknown) => void;
  retryAfterSeconds?: number;
}

export function errorHandler(options: ErrorHandlerOptions = {}) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw Errors.notFound();
      // The router answers unknown methods itself (405/501, text; OPTIONS 200 empty): make them envelopes.
      if ((ctx.status === 405 || ctx.status === 501) && !isEnvelope(ctx.body)) {
        throw Errors.methodNotAllowed(ctx.method, allowedMethods(ctx));
      }
      if (ctx.method === "OPTIONS" && ctx.status === 200 && !isEnvelope(ctx.body)) {
        ctx.body = { result: "success", msg: "", allowed_methods: allowedMethods(ctx) };
      }
    } catch (err) {
      if (options.isDatabaseUnreachable?.(err)) {
        options.onDatabaseUnreachable?.(err);
        const retryAfter = String(options.retryAfterSeconds ?? 5);
        ctx.status = 503;
        ctx.set("Retry-After", retryAfter);
        ctx.body = {
          result: "error",
          msg: "The database is unreachable; try again shortly",
          code: "SERVICE_UNAVAILABLE",
          "retry-after": Number(retryAfter),
        };
        return;
      }
      const apiError = err instanceof ApiError ? err : translateKnownError(err);
      if (apiError) {
        ctx.status = apiError.status;
        for (const [name, value] of Object.entries(apiError.headers)) ctx.set(name, value);
        const result = apiError.status >= 200 && apiError.status < 300 ? "success" : "error";
        ctx.body = { result, msg: apiError.message, code: apiError.code, ...apiError.extra };
        return;
      }
      ctx.state.log?.error({ err, requestId: ctx.state.requestId }, "unhandled error");
      ctx.status = 500;
      ctx.body = {
        result: "error",
        msg: "Internal server error",
        code: "INTERNAL_SERVER_ERROR",
        request_id: ctx.state.requestId,
      };
    }
  };
}

const isEnvelope = (body: unknown) => typeof body === "object" && body !== null && "result" in body;
const allowedMethods = (ctx: Context) =>
  (ctx.response.get("Allow") || "")
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);

/** Errors thrown by Koa/koa-body/formidable that are the client's fault. */
function translateKnownError(err: unknown): ApiError | undefined {
  if (err instanceof JsonTooDeepError) return Errors.jsonTooDeep(err);
  const e = err as {
    status?: number;
    statusCode?: number;
    type?: string;
    message?: string;
    httpCode?: number;
    code?: number;
  };
  if (e?.httpCode === 413 || e?.status === 413 || e?.type === "entity.too.large") {
    return new ApiError("REQUEST_TOO_LARGE", "Request body is too large");
  }
  const status = e?.status ?? e?.statusCode ?? e?.httpCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError("BAD_REQUEST", e.message || "Bad request", {}, { status });
  }
  return undefined;
}
