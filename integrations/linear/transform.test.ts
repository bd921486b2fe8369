// Edge cases of the Linear update summary; fixtures/ is the acceptance test.
import transform, { issueIdentifier } from "./transform";

const update = (data: Record<string, unknown>, updatedFrom: Record<string, unknown>, type = "Issue") =>
  transform({ type, action: "update", data, updatedFrom }, { event: type, action: "update", options: {} });

describe("issueIdentifier", () => {
  it("prefers the payload's identifier, then team key and number, then the URL", () => {
    expect(issueIdentifier({ identifier: "A-1", team: { key: "B" }, number: 2 }, undefined)).toBe("A-1");
    expect(issueIdentifier({ team: { key: "B" }, number: 2 }, undefined)).toBe("B-2");
    expect(issueIdentifier({}, "https://linear.app/x/issue/WEB-46#comment-1")).toBe("WEB-46");
    expect(issueIdentifier({}, undefined)).toBeUndefined();
  });
});

describe("issue updates", () => {
  it("ignores ordering and timestamps", () => {
    expect(update({ title: "T" }, { sortOrder: 1, updatedAt: "x" })).toMatchObject({
      changes: [],
      skip: expect.any(String),
    });
  });
  it("names added labels and counts removed ones", () => {
    const view = update(
      {
        title: "T",
        labelIds: ["b", "c"],
        labels: [
          { id: "b", name: "B" },
          { id: "c", name: "C" },
        ],
      },
      { labelIds: ["a", "b"] },
    );
    expect(view.changes).toEqual([{ field: "labels", added: ["C"], removedCount: 1 }]);
    expect(view.skip).toBe("");
  });
  it("maps priority numbers to Linear's names", () => {
    expect(update({ title: "T", priority: 1 }, { priority: 4 }).singleChange).toEqual({
      field: "priority",
      from: "Low",
      to: "Urgent",
    });
  });
  it("keeps an unassignment even though neither name is known", () => {
    expect(update({ title: "T", assignee: null }, { assigneeId: "u1" }).singleChange).toEqual({
      field: "assignee",
      to: undefined,
      assignee: true,
    });
  });
});
