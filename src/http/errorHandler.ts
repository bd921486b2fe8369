// The only try/catch around the stack: ApiError → Zulip error envelope; anything else → logged 500.
import type { Context, Next } from "koa";
import { ApiError, Errors } from "../errors";

export function errorHandler() {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw Errors.notFound();
    } catch (err) {
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

/** Errors thrown by Koa/koa-body/formidable that are the client's fault. */
function translateKnownError(err: unknown): ApiError | undefined {
  const e = err as { status?: number; statusCode?: number; type?: string; message?: string; httpCode?: number; code?: number };
  if (e?.httpCode === 413 || e?.status === 413 || e?.type === "entity.too.large") {
    return new ApiError("REQUEST_TOO_LARGE", "Request body is too large");
  }
  const status = e?.status ?? e?.statusCode ?? e?.httpCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError("BAD_REQUEST", e.message || "Bad request", {}, { status });
  }
  return undefined;
}
