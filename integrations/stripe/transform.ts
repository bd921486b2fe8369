// Stripe events all share one envelope ({type, data: {object, previous_attributes}}) around
// dozens of object types. This reads the facts a reader acts on out of whichever object it is —
// amount in the right currency format, customer, status, what changed — into `stripe`, so the
// one template only formats. Dashboard links go to the test-mode dashboard for test events.
import { scalarText as str } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";
import { formatAmount } from "./money";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export interface Fact {
  label: string;
  text?: string;
  /** Epoch seconds, rendered with {{time}}. */
  time?: number;
}

export interface StripeView {
  /** "Charge", "Checkout session", "Product"… */
  label: string;
  /** What the headline shows for the object: its id, or an invoice's number. */
  name?: string;
  url?: string;
  /** The event type's last part as a phrase: "succeeded", "was refunded". */
  verb: string;
  amount?: string;
  customer?: { id?: string; url?: string; details?: string };
  status?: string;
  previousStatus?: string;
  failure?: string;
  failureCode?: string;
  facts: Fact[];
  /** What an update changed; from/to are absent when the value is an object (metadata, addresses…). */
  changes: { field: string; from?: string; to?: string }[];
  moreChanges: number;
  /** Set when there is nothing worth a message (an update that changed nothing a reader cares about). */
  skip?: string;
  topic: string;
}

// Dashboard pages by object type; refunds, disputes and checkout sessions link their payment.
const DASHBOARD_PATHS: Record<string, string> = {
  charge: "payments",
  payment_intent: "payments",
  customer: "customers",
  subscription: "subscriptions",
  invoice: "invoices",
  payout: "payouts",
  product: "products",
  price: "prices",
  plan: "plans",
  coupon: "coupons",
  account: "connect/accounts",
};
const LABELS: Record<string, string> = {
  payment_intent: "Payment",
  "checkout.session": "Checkout session",
  invoiceitem: "Invoice item",
  "billing.meter": "Meter",
};

const VERBS: Record<string, string> = {
  created: "was created",
  updated: "was updated",
  deleted: "was deleted",
  succeeded: "succeeded",
  failed: "failed",
  payment_failed: "failed",
  paid: "was paid",
  payment_succeeded: "was paid",
  canceled: "was canceled",
  refunded: "was refunded",
  captured: "was captured",
  pending: "is pending",
  processing: "is processing",
  expired: "expired",
  completed: "was completed",
  closed: "was closed",
  finalized: "was finalized",
  voided: "was voided",
  sent: "was sent",
  marked_uncollectible: "was marked uncollectible",
  upcoming: "is coming up",
  overdue: "is overdue",
  will_be_due: "will be due soon",
  requires_action: "needs the customer to confirm the payment",
  payment_action_required: "needs the customer to confirm the payment",
  trial_will_end: "ends its trial soon",
  paused: "was paused",
  resumed: "was resumed",
  async_payment_succeeded: "was paid",
  async_payment_failed: "could not be paid",
};

const MAX_CHANGES = 5;
const STRIPE_ID = /^[a-z]{2,}_[A-Za-z0-9]{8,}$/;
// Fields whose change says nothing to a reader, or that the message already shows another way.
const NOT_A_CHANGE = new Set([
  "status",
  "updated",
  "livemode",
  "latest_invoice",
  "failure_balance_transaction",
  "failure_reason",
  "failure_message",
  "failure_code",
  "last_payment_error",
]);

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
// Payload fields may hold any JSON type: a number or an object must not crash the delivery (a 500).
const words = (s: unknown): string => String(s).replace(/[._]+/g, " ");
const sentence = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const idOf = (v: unknown): string | undefined =>
  str(v) ?? (v && typeof v === "object" ? str((v as Obj).id) : undefined);

function verbOf(type: string, objectType: string, object: Obj, previous: Obj): string {
  const last = type.split(".").pop() ?? type;
  if (objectType === "subscription" && last === "updated" && typeof previous.cancel_at_period_end === "boolean")
    return object.cancel_at_period_end ? "will be canceled at the end of its period" : "will no longer be canceled";
  if (objectType === "charge" && last === "refunded" && object.refunded === false) return "was partially refunded";
  if (objectType === "dispute" && last === "created") return "was opened";
  if (objectType === "subscription" && last === "deleted") return "was canceled";
  if (objectType === "invoice" && last === "payment_failed") return "could not be paid";
  return VERBS[last] ?? `— ${words(last)}`;
}

function customerOf(object: Obj, dashboard: string): StripeView["customer"] {
  const expanded: Obj = object.customer && typeof object.customer === "object" ? object.customer : {};
  const id = idOf(object.customer);
  const contact: Obj = object.customer_details ?? object.billing_details ?? {};
  const name = str(expanded.name) ?? str(object.customer_name) ?? str(contact.name);
  const email = str(expanded.email) ?? str(object.customer_email) ?? str(contact.email) ?? str(object.receipt_email);
  const details = [name, email].filter(Boolean).join(", ") || undefined;
  if (!id && !details) return undefined;
  return { id, url: id ? `${dashboard}customers/${id}` : undefined, details };
}

const BRANDS: Record<string, string> = {
  amex: "American Express",
  cartes_bancaires: "Cartes Bancaires",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

/** "Visa •••• 4242" from a charge's payment_method_details (current API) or source (old API). */
function cardOf(object: Obj): string | undefined {
  const card: Obj | undefined =
    object.payment_method_details?.card ?? (object.source?.last4 ? object.source : undefined);
  const code = str(card?.brand);
  const brand = code && (BRANDS[code.toLowerCase()] ?? sentence(code));
  const last4 = str(card?.last4);
  if (!last4) return brand;
  return `${brand ? `${brand} ` : ""}•••• ${last4}`;
}

function describePrice(price: Obj, quantity: unknown): string | undefined {
  const name =
    str(price.nickname) ?? str(price.name) ?? str(price.product?.name) ?? idOf(price.product) ?? str(price.id);
  const amount = formatAmount(price.unit_amount ?? price.amount, price.currency);
  const interval = str(price.recurring?.interval ?? price.interval);
  const count = Number(price.recurring?.interval_count ?? price.interval_count ?? 1);
  const every = interval ? (count > 1 ? ` every ${count} ${interval}s` : `/${interval}`) : "";
  const times = typeof quantity === "number" && quantity > 1 ? ` × ${quantity}` : "";
  const cost = amount ? `${amount}${every}${times}` : "";
  return name ? (cost ? `${name} (${cost})` : name) : cost || undefined;
}

/** "Gold (20.00 AUD/month)" for a subscription's items (current API) or plan (old API). */
export function planOf(subscription: Obj): string | undefined {
  const items: Obj[] = Array.isArray(subscription.items?.data) ? subscription.items.data : [];
  const described = (
    items.length > 0
      ? items.map((item) => describePrice(item.price ?? item.plan ?? {}, item.quantity))
      : subscription.plan
        ? [describePrice(subscription.plan, subscription.quantity)]
        : []
  ).filter((d): d is string => d !== undefined);
  if (described.length === 0) return undefined;
  return described.length <= 2
    ? described.join(" and ")
    : `${described.slice(0, 2).join(", ")} and ${described.length - 2} more`;
}

function amountOf(objectType: string, object: Obj, type: string): string | undefined {
  const currency = object.currency;
  if (objectType === "invoice") {
    const paid = /paid|succeeded/.test(type) && num(object.amount_paid);
    return formatAmount(paid ? object.amount_paid : (object.amount_due ?? object.total), currency);
  }
  if (objectType === "subscription") return undefined;
  return formatAmount(object.amount ?? object.amount_total ?? object.unit_amount, currency);
}

function factsOf(objectType: string, object: Obj, type: string): Fact[] {
  const facts: (Fact | undefined)[] = [];
  const text = (label: string, value: unknown) => {
    const s = str(value);
    if (s) facts.push({ label, text: s });
  };
  const time = (label: string, value: unknown) => {
    const t = num(value);
    if (t) facts.push({ label, time: t });
  };
  switch (objectType) {
    case "charge":
      text("Card", cardOf(object));
      if (num(object.amount_refunded)) text("Refunded", formatAmount(object.amount_refunded, object.currency));
      if (/elevated|highest/.test(object.outcome?.risk_level ?? "")) text("Risk", object.outcome.risk_level);
      break;
    case "refund":
      if (object.reason) text("Reason", words(String(object.reason)));
      break;
    case "dispute":
      if (object.reason) text("Reason", words(String(object.reason)));
      if (object.status) text("Status", words(String(object.status)));
      if (object.status === "needs_response") time("Evidence due", object.evidence_details?.due_by);
      break;
    case "customer":
      text("Name", object.name);
      text("Email", object.email);
      break;
    case "subscription":
      text("Plan", planOf(object));
      text("Status", object.status === "active" ? undefined : object.status && words(object.status));
      if (type.endsWith("trial_will_end") || object.status === "trialing") time("Trial ends", object.trial_end);
      if (object.cancel_at_period_end === true) time("Cancels", object.cancel_at ?? object.current_period_end);
      else time("Cancels", object.cancel_at);
      if (type.endsWith(".deleted")) time("Ended", object.ended_at ?? object.canceled_at);
      break;
    case "invoice":
      if (type.endsWith(".upcoming")) {
        time("Bills on", object.next_payment_attempt ?? object.period_end);
        break;
      }
      text("Status", object.status && words(String(object.status)));
      if (object.status === "open") time("Due", object.due_date);
      if (type.endsWith("payment_failed")) {
        text("Attempts", object.attempt_count);
        time("Next attempt", object.next_payment_attempt);
      }
      if (object.billing_reason && object.billing_reason !== "manual") text("Billing", words(object.billing_reason));
      break;
    case "checkout.session":
      text("Payment", object.payment_status && words(String(object.payment_status)));
      break;
    case "payout":
      text("Status", object.status && words(String(object.status)));
      if (object.status !== "failed" && object.status !== "canceled") time("Arrives", object.arrival_date);
      break;
    default:
      text("Name", object.name);
      text("Status", object.status && words(String(object.status)));
  }
  const description = str(object.description);
  if (description && objectType !== "payout") text("Description", description.split(/\r?\n/, 1)[0]);
  return facts.filter((f): f is Fact => f !== undefined);
}

function display(field: string, value: unknown, current: Obj): string | undefined {
  if (value === null || value === undefined || value === "") return "none";
  if (field === "plan" && typeof value === "object") return planOf({ plan: value }) ?? "another plan";
  if (field === "items" && typeof value === "object") return planOf({ items: value }) ?? "other items";
  if (typeof value === "object") return undefined;
  if (typeof value === "number" && /(_at|_date|_end|_start|^created)$/.test(field))
    return new Date(value * 1000).toISOString().slice(0, 10);
  if (typeof value === "number" && /amount|balance/.test(field))
    return formatAmount(value, current.currency) ?? String(value);
  return String(value);
}

function changesOf(previous: Obj, current: Obj, shown: Set<string>): StripeView["changes"] {
  return Object.entries(previous)
    .filter(([field, before]) => !shown.has(field) && !STRIPE_ID.test(str(current[field]) ?? str(before) ?? ""))
    .map(([field, before]) => {
      const from = display(field, before, current);
      const to = display(field, current[field], current);
      // An object on either side (metadata, an address): say that it changed, not how.
      if (from === undefined || to === undefined) return { field: sentence(words(field)) };
      return { field: sentence(words(field)), from, to };
    })
    .filter((c) => c.from !== c.to || c.from === undefined);
}

export default function transform(payload: Obj, _context: TransformContext): { stripe: StripeView } {
  const type = String(payload.type);
  // "Thin" events (event destinations, API v2) carry only a reference to the object.
  const related: Obj | undefined = payload.related_object;
  const object: Obj = payload.data?.object ?? (related ? { object: related.type, id: related.id } : {});
  const previous: Obj =
    payload.data?.previous_attributes && typeof payload.data.previous_attributes === "object"
      ? payload.data.previous_attributes
      : {};
  const objectType = str(object.object) ?? type.split(".").slice(0, -1).join(".");
  const live = payload.livemode ?? object.livemode;
  const dashboard = `https://dashboard.stripe.com/${live === true ? "" : "test/"}`;
  const id = str(object.id);
  // Charges, refunds, disputes and checkout sessions of one payment share its PaymentIntent id (the topic).
  const paymentId = idOf(object.payment_intent) ?? idOf(object.charge);
  const page = DASHBOARD_PATHS[objectType];
  const url = page && id ? `${dashboard}${page}/${id}` : paymentId ? `${dashboard}payments/${paymentId}` : undefined;
  const customer = objectType === "customer" ? undefined : customerOf(object, dashboard);
  const updated = type.endsWith(".updated");
  const verb = verbOf(type, objectType, object, previous);
  const shown = new Set([...NOT_A_CHANGE, ...(verb.includes("canceled") ? ["cancel_at_period_end"] : [])]);
  const allChanges = updated ? changesOf(previous, object, shown) : [];
  const previousStatus = previous.status;
  const statusChanged = typeof previousStatus === "string" && previousStatus !== object.status;
  const failureReason = str(object.failure_reason);
  const failure =
    str(object.failure_message) ??
    str(object.last_payment_error?.message) ??
    (failureReason ? sentence(words(failureReason)) : undefined);
  return {
    stripe: {
      label: LABELS[objectType] ?? sentence(words(objectType)),
      name: (objectType === "invoice" ? str(object.number) : undefined) ?? id,
      url,
      verb,
      amount: amountOf(objectType, object, type),
      customer,
      status: str(object.status) && words(object.status),
      previousStatus: statusChanged ? words(previousStatus) : undefined,
      failure,
      failureCode:
        str(object.failure_code) ??
        str(object.last_payment_error?.decline_code) ??
        str(object.last_payment_error?.code),
      // The status is left out when the headline already says it ("failed", "is now past due").
      facts: factsOf(objectType, object, type).filter(
        (f) => !(f.label === "Status" && (statusChanged || (f.text !== undefined && verb.includes(f.text)))),
      ),
      changes: allChanges.slice(0, MAX_CHANGES),
      moreChanges: Math.max(0, allChanges.length - MAX_CHANGES),
      skip: verb === "was updated" && allChanges.length === 0 && !statusChanged ? "nothing changed" : undefined,
      topic: customer?.id ?? (objectType === "customer" ? id : undefined) ?? paymentId ?? id ?? type,
    },
  };
}
