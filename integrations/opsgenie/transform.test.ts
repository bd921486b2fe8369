// Opsgenie's mixed timestamp units and action names, as the templates get them.
import transform, { humanize, toMillis } from "./transform";

const context = { event: "Close", options: {} };

describe("opsgenie transform", () => {
  it("reads seconds, milliseconds and nanoseconds as milliseconds", () => {
    expect(toMillis(1751364000)).toBe(1751364000000);
    expect(toMillis(1751364000000)).toBe(1751364000000);
    expect(toMillis(1751364000000000000)).toBe(1751364000000);
    expect(toMillis("1751364000")).toBeUndefined();
  });

  it("names unknown actions readably", () => {
    expect(humanize("AddRecipient")).toBe("add recipient");
    expect(humanize("UnAcknowledge")).toBe("unacknowledge");
  });

  it("says how long a closed alert was open", () => {
    const view = transform(
      { action: "Close", alert: { createdAt: 1751364000000, updatedAt: 1751371200000000000 } },
      context,
    );
    expect(view).toMatchObject({ openFor: "2 hours" });
  });
});
