// What the Review Board templates cannot work out themselves: who the reviewers are (people and
// groups, as link titles), and how many comments a review left across its four comment lists.
// Pure: no I/O, no clock.

// Payloads are free-form JSON read defensively field by field; `any` keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

const titles = (list: unknown): string[] =>
  Array.isArray(list)
    ? list.map((x) => (x as Dict)?.title).filter((t): t is string => typeof t === "string" && t !== "")
    : [];
const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);

export default function transform(payload: Dict): Dict {
  const rr: Dict = payload.review_request ?? {};
  const groups = titles(rr.target_groups).map((g) => `group ${g}`);
  return {
    reviewerNames: [...titles(rr.target_people), ...groups],
    repoTitle: rr.links?.repository?.title ?? "",
    submitter: rr.links?.submitter?.title ?? "",
    commentCount:
      count(payload.diff_comments) +
      count(payload.general_comments) +
      count(payload.file_attachment_comments) +
      count(payload.screenshot_comments),
  };
}
