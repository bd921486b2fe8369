// Review Board names a request's reviewers as people and groups (objects with a `title`): one
// list of names, groups said as such, for one sentence ("A, B and group C"). Merging two lists
// with a prefix on one is code; the repository and submitter titles and the review's comment
// count are manifest outputs.
import { defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

const titles = (list: unknown): string[] =>
  Array.isArray(list)
    ? list
        .map((x) => (x as { title?: unknown } | null)?.title)
        .filter((t): t is string => typeof t === "string" && t !== "")
    : [];

export default defineTransform<Payload, { reviewerNames: string[] }>((payload) => {
  const rr = payload.review_request;
  return {
    reviewerNames: [...titles(rr.target_people), ...titles(rr.target_groups).map((g) => `group ${g}`)],
  };
});
