// The PagerDuty transform reduces the v1, v2 and v3 webhook formats to the same incident updates.
import transform, { duration, parseReference } from "./transform";

const context = { event: "legacy", options: {} };

describe("pagerduty transform", () => {
  it("reads the number and title out of a v3 incident reference", () => {
    expect(parseReference("[#1287] Payments API down")).toEqual({ number: 1287, title: "Payments API down" });
    expect(parseReference("no number here")).toEqual({ title: "no number here" });
  });

  it("gives v1, v2 and v3 triggers the same shape", () => {
    const v3 = transform(
      {
        event: {
          event_type: "incident.triggered",
          agent: { type: "service_reference", summary: "API" },
          data: { type: "incident", number: 5, title: "Down", html_url: "https://x.pagerduty.com/incidents/P5" },
        },
      },
      context,
    ).updates[0];
    const v2 = transform(
      {
        messages: [
          {
            event: "incident.trigger",
            incident: { incident_number: 5, title: "Down", html_url: "https://x.pagerduty.com/incidents/P5" },
          },
        ],
      },
      context,
    ).updates[0];
    const v1 = transform(
      {
        messages: [
          {
            type: "incident.trigger",
            data: {
              incident: {
                incident_number: 5,
                trigger_summary_data: { subject: "Down" },
                html_url: "https://x.pagerduty.com/incidents/P5",
              },
            },
          },
        ],
      },
      context,
    ).updates[0];
    for (const update of [v3, v2, v1])
      expect(update).toMatchObject({ action: "triggered", number: 5, title: "Down", topic: "Incident #5: Down" });
    // A service triggering the incident is not a person acting on it.
    expect(v3.agent).toBeUndefined();
  });

  it("turns every message of a v1/v2 delivery into its own update", () => {
    const { updates } = transform(
      { messages: [{ event: "incident.trigger" }, { event: "incident.resolve" }] },
      context,
    );
    expect(updates.map((u) => u.action)).toEqual(["triggered", "resolved"]);
  });

  it("measures how long an incident was open", () => {
    expect(duration("2025-07-01T02:14:09Z", "2025-07-01T04:20:00Z")).toBe("2 hours 6 minutes");
    expect(duration(undefined, "2025-07-01T04:20:00Z")).toBeUndefined();
  });
});
