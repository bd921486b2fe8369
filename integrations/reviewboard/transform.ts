// Review Board names a request's reviewers as people and groups (objects with a `title`): one
// list of names for the templates, groups said as such; and a review's comments of four kinds,
// counted. The repository and submitter titles are manifest outputs.
import { defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

const titles = (list: unknown): string[] =>
  Array.isArray(list)
    ? list
        .map((x) => (x as { title?: unknown } | null)?.title)
        .filter((t): t is string => typeof t === "string" && t !== "")
    : [];
const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);

export default defineTransform<Payload, { reviewerNames: string[]; commentCount: number }>((payload) => {
  const rr = (payload.review_request ?? {}) as { target_people?: unknown; target_groups?: unknown };
  return {
    reviewerNames: [...titles(rr.target_people), ...titles(rr.target_groups).map((g) => `group ${g}`)],
    commentCount:
      count(payload.diff_comments) +
      count(payload.general_comments) +
      count(payload.file_attachment_comments) +
      count(payload.screenshot_comments),
  };
});
