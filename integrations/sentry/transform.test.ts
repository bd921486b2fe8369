// The Sentry transform's pure parts: which resource a payload is, tags as a map, alert durations.
import transform, { duration, sentryKind, tagMap } from "./transform";

describe("sentry transform", () => {
  it("tells the resource from the payload's shape", () => {
    expect(sentryKind({ action: "created", data: { issue: { id: "1", title: "x" } } })).toBe("issue");
    expect(sentryKind({ action: "resolved", data: { metric_alert: {} } })).toBe("metric_alert");
    expect(sentryKind({ action: "triggered", data: { event: { title: "x" } } })).toBe("event_alert");
    expect(sentryKind({ action: "created", data: { error: { title: "x" } } })).toBe("error");
    expect(sentryKind({ action: "deleted", data: { comment: "", issue_id: 4 } })).toBe("comment");
    expect(sentryKind({ action: "created", data: { installation: {} } })).toBe("installation");
    expect(sentryKind({ url: "https://sentry.example/issues/1/" })).toBe("legacy");
    expect(sentryKind({ action: "created", data: {} })).toBeUndefined();
  });

  it("reads tags given as pairs or as key/value objects", () => {
    expect(tagMap([["environment", "prod"]])).toEqual({ environment: "prod" });
    expect(tagMap([{ key: "release", value: "1.2" }])).toEqual({ release: "1.2" });
    expect(tagMap(undefined)).toEqual({});
  });

  it("says how long an alert was open, in at most two units", () => {
    expect(duration("2025-05-08T21:00:00Z", "2025-05-08T21:40:00Z")).toBe("40 minutes");
    expect(duration("2025-05-08T21:00:00Z", "2025-05-10T23:05:00Z")).toBe("2 days 2 hours");
    expect(duration("2025-05-08T21:00:00Z", "2025-05-08T21:00:10Z")).toBe("less than a minute");
    expect(duration("2025-05-08T21:00:00Z", null)).toBeUndefined();
  });

  it("names the topic after the alert rule, not the alert's changing title", () => {
    const view = transform(
      {
        action: "critical",
        data: { description_title: "Critical: x", metric_alert: { alert_rule: { name: "Rule" } } },
      },
      { event: "critical", options: {} },
    );
    expect(view.subject).toBe("Rule");
  });
});
