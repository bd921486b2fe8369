import { parseTriggeredEvent } from "./transform";

describe("freshdesk triggered_event", () => {
  it("names statuses and priorities", () => {
    expect(parseTriggeredEvent("{status:{from:4,to:6}}")).toEqual({
      kind: "status",
      from: "Resolved",
      to: "Waiting on Customer",
    });
    expect(parseTriggeredEvent("{priority:{from:3,to:1}}")).toEqual({ kind: "priority", from: "High", to: "Low" });
  });

  it("keeps an unknown number as it is", () => {
    expect(parseTriggeredEvent("{status:{from:2,to:12}}")).toEqual({ kind: "status", from: "Open", to: "12" });
  });

  it("knows creation and notes, tolerates spaces, and flags anything else", () => {
    expect(parseTriggeredEvent("{ticket_action: created}")).toEqual({ kind: "created" });
    expect(parseTriggeredEvent("{note_type:private}")).toEqual({ kind: "note", private: true });
    expect(parseTriggeredEvent("{responder_id:{from:null,to:42}}")).toEqual({ kind: "unknown" });
  });
});
