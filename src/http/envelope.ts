// The success envelope, with the ignored-parameters bookkeeping done by params.ts.
import type { Context } from "koa";

export function ok(ctx: Context, data: Record<string, unknown> = {}): void {
  const body: Record<string, unknown> = { result: "success", msg: "", ...data };
  const ignored: string[] | undefined = ctx.state.ignoredParams;
  if (ignored && ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  ctx.status = 200;
  ctx.body = body;
}
