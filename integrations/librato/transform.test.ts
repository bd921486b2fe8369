import { describeCondition, duration } from "./transform";

describe("librato conditions in words", () => {
  it("says what was breached and for how long", () => {
    expect(describeCondition({ type: "above", threshold: 750, summary_function: "max", duration: 300 })).toBe(
      "max above 750 for 5 min",
    );
    expect(describeCondition({ type: "absent", summary_function: "average", duration: 3600 })).toBe("no data for 1 h");
    expect(describeCondition({ type: "below", threshold: 0, summary_function: "absolute_value" })).toBe(
      "absolute value below 0",
    );
    expect(describeCondition(undefined)).toBeUndefined();
  });

  it("keeps odd durations in seconds", () => {
    expect(duration(90)).toBe("90 s");
    expect(duration(0)).toBeUndefined();
  });
});
