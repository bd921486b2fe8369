// How SonarQube condition values read in chat: ratings as letters, coverage and densities as
// percentages, long decimals rounded, metric keys in words.
import transform, { formatValue, metricName } from "./transform";

describe("formatValue", () => {
  it.each([
    ["new_reliability_rating", "1", "A"],
    ["sqale_rating", "5", "E"],
    ["coverage", "61.2345", "61.2%"],
    ["new_duplicated_lines_density", "3", "3%"],
    ["new_violations", "7", "7"],
    ["alert_status", "OK", "OK"],
    ["coverage", undefined, "no value"],
  ])("%s %s → %s", (metric, value, text) => expect(formatValue(metric, value)).toBe(text));
});

describe("metricName", () => {
  it.each([
    ["new_coverage", "Coverage on new code"],
    ["new_security_rating", "Security rating on new code"],
    ["duplicated_lines_density", "Duplicated lines density"],
  ])("%s → %s", (metric, name) => expect(metricName(metric)).toBe(name));
});

describe("transform", () => {
  it("lists only failing or warning conditions, with the threshold's direction", () => {
    const view = transform({
      qualityGate: {
        conditions: [
          { metric: "coverage", operator: "LESS_THAN", value: "50", status: "ERROR", errorThreshold: "80" },
          { metric: "bugs", operator: "GREATER_THAN", value: "0", status: "OK", errorThreshold: "0" },
          { metric: "code_smells", operator: "GREATER_THAN", value: "12", status: "WARN", errorThreshold: "10" },
        ],
      },
    });
    expect(view.failing).toEqual(["Coverage is 50% (required ≥ 80%)", "Code smells is 12 (required ≤ 10)"]);
    expect(view.moreFailing).toBe(0);
  });
});
