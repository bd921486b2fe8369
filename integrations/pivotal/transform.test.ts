// Edge cases of the Pivotal Tracker view; fixtures/ (XML and JSON) is the acceptance test.
import { describeStoryChange, splitV3Sentence } from "./transform";

describe("splitV3Sentence", () => {
  it("separates the verb from the quoted story name", () => {
    expect(splitV3Sentence('Leo Franchi accepted "My "new" story"', "Leo Franchi")).toEqual({
      verb: "accepted",
      name: 'My "new" story',
    });
    expect(splitV3Sentence('Ann added comment: "ok"', "Ann")).toEqual({ verb: "added comment", name: "ok" });
    expect(splitV3Sentence("Ann did something", "Ann")).toEqual({ verb: "did something" });
  });
});

describe("describeStoryChange", () => {
  it("keeps what a reader cares about and drops ordering and timestamps", () => {
    expect(
      describeStoryChange({
        original_values: { current_state: "delivered", before_id: 1, updated_at: 1, estimate: 1 },
        new_values: { current_state: "accepted", before_id: 2, updated_at: 2, estimate: 1 },
      }),
    ).toEqual([{ field: "state", from: "delivered", to: "accepted" }]);
  });
  it("compares labels by name, whether sent as strings or objects", () => {
    expect(
      describeStoryChange({
        original_values: { labels: ["a", { name: "b" }] },
        new_values: { labels: [{ name: "b" }, "c"] },
      }),
    ).toEqual([{ field: "labels", added: ["c"], removed: ["a"] }]);
  });
});
