// Edge cases of the GitLab transform; fixtures/ is the acceptance test.
import transform, { describeChanges, duration } from "./transform";

const texts = (changes: Parameters<typeof describeChanges>[0]) =>
  describeChanges(changes).map((p) => [p.sep, p.text, p.values.map((v) => v.sep + v.v).join(""), p.suffix]);

describe("duration", () => {
  it("writes hours, minutes and seconds, leaving out zero parts", () => {
    expect(duration(84)).toBe("1m 24s");
    expect(duration(3600)).toBe("1h");
    expect(duration(3725.4)).toBe("1h 2m 5s");
    expect(duration(0)).toBe("0s");
  });
  it("is empty when there is no duration", () => {
    expect(duration(null)).toBe("");
    expect(duration(undefined)).toBe("");
    expect(duration("soon")).toBe("");
  });
});

describe("describeChanges", () => {
  it("names labels added and removed, by title", () => {
    expect(
      texts({
        labels: {
          previous: [{ title: "bug" }, { title: "ui" }],
          current: [{ title: "bug" }, { title: "p1" }, { title: "p2" }],
        },
      }),
    ).toEqual([
      ["", "added the", "p1 and p2", "labels"],
      [" and ", "removed the", "ui", "label"],
    ]);
  });
  it("says nothing about bookkeeping fields", () => {
    expect(describeChanges({ updated_at: { previous: "a", current: "b" }, relative_position: { current: 3 } })).toEqual(
      [],
    );
  });
  it("joins three or more phrases with commas and a final 'and'", () => {
    const phrases = describeChanges({
      title: { previous: "a", current: "b" },
      due_date: { previous: null, current: "2025-07-01" },
      confidential: { previous: false, current: true },
    });
    expect(phrases.map((p) => p.sep)).toEqual(["", ", ", " and "]);
  });
});

describe("skip", () => {
  const context = (event: string, action?: string, branches?: string) => ({ event, action, options: { branches } });
  it("drops pipelines that have not finished, and filters branches but not tags", () => {
    const pipeline = (status: string, ref: string, tag = false) => ({ object_attributes: { id: 1, status, ref, tag } });
    expect(transform(pipeline("running", "main"), context("Pipeline Hook")).skip).not.toBe("");
    expect(transform(pipeline("failed", "main"), context("Pipeline Hook", undefined, "main")).skip).toBe("");
    expect(transform(pipeline("failed", "dev"), context("Pipeline Hook", undefined, "main")).skip).not.toBe("");
    expect(transform(pipeline("success", "v1.0", true), context("Pipeline Hook", undefined, "main")).skip).toBe("");
  });
  it("keeps a merge request update that pushed commits even when no field changed", () => {
    const mr = { object_attributes: { iid: 1, title: "t", oldrev: "abc" }, changes: { updated_at: {} } };
    expect(transform(mr, context("Merge Request Hook", "update")).skip).toBe("");
    expect(
      transform({ ...mr, object_attributes: { iid: 1, title: "t" } }, context("Merge Request Hook", "update")).skip,
    ).not.toBe("");
  });
});
