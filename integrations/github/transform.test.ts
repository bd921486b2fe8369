// The GitHub transform's pure helpers: what they compute from a payload, including the edge cases
// the fixture suite does not spell out (no times, odd refs, long lists).
import transform, {
  alertTitle,
  changedFields,
  committersSummary,
  formatDuration,
  inputList,
  mergeQueuePullRequest,
  packageVersion,
  pushKind,
  skipReason,
} from "./transform";

const context = (event: string, action?: string, options: Record<string, string | undefined> = {}) => ({
  event,
  action,
  options,
});

describe("github transform", () => {
  it("tells the push shapes apart", () => {
    expect(pushKind({ ref: "refs/tags/v1", deleted: false, commits: [] })).toBe("tag_pushed");
    expect(pushKind({ ref: "refs/tags/v1", deleted: true, commits: [] })).toBe("tag_removed");
    expect(pushKind({ ref: "refs/heads/x", deleted: true, commits: [] })).toBe("branch_deleted");
    expect(pushKind({ ref: "refs/heads/x", forced: true, created: false, commits: [] })).toBe("force_pushed");
    expect(pushKind({ ref: "refs/heads/x", created: true, commits: [] })).toBe("branch_pushed");
    expect(pushKind({ ref: "refs/heads/x", commits: [{}] })).toBe("commits");
  });

  it("names the committers when others than the pusher wrote commits", () => {
    const by = (username: string) => ({ author: { username } });
    expect(committersSummary([by("ada"), by("ada")], "ada")).toBe("");
    expect(committersSummary([by("bo"), by("ada"), by("bo")], "ada")).toBe("Commits by bo (2) and ada (1).");
    const many = ["a", "b", "c", "d", "e", "a"].map(by);
    expect(committersSummary(many, "z")).toBe("Commits by a (2), b (1), c (1) and others (2).");
  });

  it("lists the changed fields of an edit, cut after four", () => {
    expect(changedFields({ color: { from: "fff" } })).toBe("color");
    expect(changedFields({ name: {}, default_branch: {} })).toBe("name and default branch");
    expect(changedFields({ a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 })).toBe("a, b, c, d … and 2 more");
    expect(changedFields(null)).toBe("");
  });

  it("formats durations and leaves unknown or empty spans out", () => {
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(198)).toBe("3 min 18 s");
    expect(formatDuration(120)).toBe("2 min");
    expect(formatDuration(3900)).toBe("1 h 5 min");
    expect(formatDuration(7200)).toBe("2 h");
    expect(formatDuration(0)).toBe("");
    expect(formatDuration(-5)).toBe("");
    expect(formatDuration(undefined)).toBe("");
    const job = (started_at: string | null, completed_at: string | null) =>
      transform({ workflow_job: { started_at, completed_at } }, context("workflow_job", "completed")).duration;
    expect(job("2025-03-14T09:02:10Z", "2025-03-14T09:06:52Z")).toBe("4 min 42 s");
    expect(job("2025-03-14T09:02:10Z", null)).toBe("");
    expect(transform({ build: { duration: 41250 } }, context("page_build")).duration).toBe("41 s");
  });

  it("finds the pull request behind a merge-queue group", () => {
    expect(mergeQueuePullRequest("refs/heads/gh-readonly-queue/main/pr-104-929f8209d40f77f4abc6")).toBe(104);
    expect(mergeQueuePullRequest("refs/heads/gh-readonly-queue/release/2.x/pr-7-abc123")).toBe(7);
    expect(mergeQueuePullRequest("refs/heads/main")).toBeUndefined();
    expect(mergeQueuePullRequest(undefined)).toBeUndefined();
  });

  it("shows a container's tag or a short digest instead of the full version name", () => {
    const digest = "sha256:3da1996a8115d7616457760d9920b815241d0a03b34cf5f04e9a0e9d8de37498";
    expect(packageVersion({ package_version: { version: "1.0.0" } })).toBe("1.0.0");
    expect(packageVersion({ package_version: { version: digest } })).toBe("sha256:3da1996a8115");
    expect(packageVersion({ package_version: { version: digest, container_metadata: { tag: { name: "2.4" } } } })).toBe(
      "2.4",
    );
    expect(packageVersion(null)).toBe("");
    const view = transform(
      { registry_package: { name: "tidepool", package_version: { version: "2.4.0" } } },
      context("registry_package", "published"),
    );
    expect(view.packageLabel).toBe("tidepool 2.4.0");
  });

  it("lists manual workflow inputs", () => {
    expect(inputList({ env: "prod", dry_run: true })).toBe("env=prod, dry_run=true");
    expect(inputList({})).toBe("");
    expect(inputList({ a: 1, b: 2, c: 3, d: 4, e: 5 })).toBe("a=1, b=2, c=3, d=4 … and 1 more");
  });

  it("titles security alerts without a final full stop", () => {
    const rule = { description: "Add the comment by default.", name: "", id: "Style/X" };
    expect(alertTitle({ alert: { rule } }, "code_scanning_alert")).toBe("Add the comment by default");
    expect(alertTitle({ alert: { rule: { id: "js/xss" } } }, "code_scanning_alert")).toBe("js/xss");
    expect(alertTitle({ alert: { security_advisory: { summary: "ReDoS in semver" } } }, "dependabot_alert")).toBe(
      "ReDoS in semver",
    );
    expect(alertTitle({}, "dependabot_alert")).toBe("");
  });

  it("drops what is private, duplicated or still running, and nothing else", () => {
    const privateRepo = { repository: { private: true } };
    expect(skipReason(privateRepo, context("star", "created", { ignore_private_repositories: "true" }))).toBe(
      "private repository",
    );
    expect(skipReason(privateRepo, context("star", "created", { ignore_private_repositories: "false" }))).toBe("");
    expect(skipReason({ ref: "refs/heads/gh-readonly-queue/main/pr-1-abc" }, context("push"))).toBe("merge queue");
    expect(
      skipReason({ ref: "feature/x", ref_type: "branch" }, context("create", undefined, { branches: "main" })),
    ).toBe("branch filtered");
    expect(skipReason({ ref: "v1", ref_type: "tag" }, context("create", undefined, { branches: "main" }))).toBe("");
    expect(skipReason({ release: { draft: false } }, context("release", "created"))).toBe("published separately");
    expect(skipReason({ release: { draft: true } }, context("release", "created"))).toBe("");
    expect(skipReason({ deployment_status: { state: "in_progress" } }, context("deployment_status", "created"))).toBe(
      "deployment still running",
    );
    expect(skipReason({ deployment_status: { state: "failure" } }, context("deployment_status", "created"))).toBe("");
    expect(skipReason({ workflow_job: { conclusion: "success" } }, context("workflow_job", "completed"))).toBe(
      "job passed",
    );
    expect(skipReason({ workflow_job: { conclusion: "failure" } }, context("workflow_job", "completed"))).toBe("");
    expect(skipReason({ build: { status: "building" } }, context("page_build"))).toBe("build still running");
    expect(skipReason({ build: { status: "errored" } }, context("page_build"))).toBe("");
  });
});
