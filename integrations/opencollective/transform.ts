// Open Collective gives ready-made amounts for orders (formattedAmountWithInterval) but raw
// cents for expenses; profile links are built from slugs. Everything lands in `oc`.
import { nonEmptyText as str } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const profile = (c: Obj | undefined): string | undefined =>
  str(c?.slug) ? `https://opencollective.com/${encodeURIComponent(c!.slug)}` : undefined;

/** 12345, "USD" → "123.45 USD" (Open Collective amounts are in cents). */
export function formatCents(cents: unknown, currency: unknown): string | undefined {
  if (typeof cents !== "number" || !Number.isFinite(cents)) return undefined;
  const amount = (cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return str(currency) ? `${amount} ${String(currency).toUpperCase()}` : amount;
}

export default function transform(payload: Obj, _context: TransformContext) {
  const data: Obj = payload.data ?? {};
  const member: Obj | undefined = data.member?.memberCollective ?? data.fromCollective ?? data.user;
  const order: Obj | undefined = data.order;
  const expense: Obj | undefined = data.expense;
  const collective: Obj | undefined = data.collective ?? data.host;
  const interval = str(order?.interval);
  const orderAmount =
    str(order?.formattedAmountWithInterval) ??
    (order
      ? `${formatCents(order.totalAmount, order.currency) ?? ""}${interval ? `/${interval}` : ""}` || undefined
      : undefined);
  const collectiveUrl = profile(collective);
  return {
    oc: {
      who: str(member?.name) ?? str(member?.slug) ?? "Someone",
      whoUrl: profile(member),
      // Open Collective's default order description says nothing the message doesn't.
      note: str(order?.description)?.match(/^((monthly|yearly) )?financial contribution to /i)
        ? undefined
        : str(order?.description),
      role: str(data.member?.role)?.toLowerCase().replace(/_/g, " "),
      amount: orderAmount,
      recurring: interval !== undefined,
      expenseAmount: expense ? formatCents(expense.amount, expense.currency) : undefined,
      expenseUrl: collectiveUrl && expense?.id !== undefined ? `${collectiveUrl}/expenses/${expense.id}` : undefined,
      collective: str(collective?.name),
      collectiveUrl,
    },
  };
}
