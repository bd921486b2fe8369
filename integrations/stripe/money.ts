// Stripe amounts are integers in the currency's smallest unit: cents for USD, but whole yen for
// JPY (zero-decimal) and fils for KWD (three-decimal). Formatting has to know which is which.

// https://docs.stripe.com/currencies#zero-decimal
const ZERO_DECIMAL = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);
// https://docs.stripe.com/currencies#three-decimal
const THREE_DECIMAL = new Set(["bhd", "jod", "kwd", "omr", "tnd"]);

export function currencyDigits(currency: string): number {
  const code = currency.toLowerCase();
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
}

/** 123456, "usd" → "1,234.56 USD"; 500, "jpy" → "500 JPY"; undefined when there is no amount. */
export function formatAmount(amount: unknown, currency: unknown): string | undefined {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return undefined;
  const code = typeof currency === "string" ? currency.trim() : "";
  const digits = currencyDigits(code);
  // Integer arithmetic: the minor units split into whole and fraction without float rounding.
  const minor = Math.round(Math.abs(amount));
  const scale = 10 ** digits;
  const whole = Math.floor(minor / scale).toLocaleString("en-US");
  const fraction = digits > 0 ? "." + String(minor % scale).padStart(digits, "0") : "";
  return `${amount < 0 ? "-" : ""}${whole}${fraction}${code ? ` ${code.toUpperCase()}` : ""}`;
}
