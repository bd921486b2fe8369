import { formatAmount } from "./money";

describe("stripe formatAmount", () => {
  it("uses two decimals for most currencies, with thousands separators", () => {
    expect(formatAmount(100, "aud")).toBe("1.00 AUD");
    expect(formatAmount(30000000, "inr")).toBe("300,000.00 INR");
    expect(formatAmount(1999, "eur")).toBe("19.99 EUR");
    expect(formatAmount(5, "usd")).toBe("0.05 USD");
  });

  it("knows zero-decimal and three-decimal currencies", () => {
    expect(formatAmount(500, "jpy")).toBe("500 JPY");
    expect(formatAmount(1250000, "KRW")).toBe("1,250,000 KRW");
    expect(formatAmount(12340, "kwd")).toBe("12.340 KWD");
  });

  it("keeps the sign of credits and refunds", () => {
    expect(formatAmount(-2500, "gbp")).toBe("-25.00 GBP");
  });

  it("gives nothing without a numeric amount, and a bare number without a currency", () => {
    expect(formatAmount(null, "usd")).toBeUndefined();
    expect(formatAmount("100", "usd")).toBeUndefined();
    expect(formatAmount(100, undefined)).toBe("1.00");
  });
});
