// A GitHub push payload of realistic size (5 commits) for the webhook bench case.
export function githubPushPayload(): Record<string, unknown> {
  const user = { name: "Bench Pusher", email: "pusher@example.com", username: "bench-pusher" };
  const commits = Array.from({ length: 5 }, (_, i) => ({
    id: `${(i + 1).toString(16).padStart(2, "0")}${"a1b2c3d4e5f6".repeat(3)}abcd`.slice(0, 40),
    tree_id: "f".repeat(40),
    distinct: true,
    message: `Improve the widget frobnicator, step ${i + 1}\n\nLonger explanation of the change number ${i + 1}.`,
    timestamp: "2026-11-22T10:00:00Z",
    url: `https://github.com/example/switchboard/commit/${i}`,
    author: user,
    committer: user,
    added: [`src/file${i}.ts`],
    removed: [],
    modified: ["README.md"],
  }));
  const owner = { login: "example", id: 1, html_url: "https://github.com/example", type: "Organization" };
  return {
    ref: "refs/heads/main",
    before: "0".repeat(40),
    after: commits[4].id,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: "https://github.com/example/switchboard/compare/000000000000...abcdef",
    commits,
    head_commit: commits[4],
    repository: {
      id: 42,
      name: "switchboard",
      full_name: "example/switchboard",
      private: false,
      owner,
      html_url: "https://github.com/example/switchboard",
      description: "Bench repository",
      fork: false,
      url: "https://github.com/example/switchboard",
      default_branch: "main",
    },
    pusher: { name: "bench-pusher", email: "pusher@example.com" },
    sender: { login: "bench-pusher", id: 7, html_url: "https://github.com/bench-pusher", type: "User" },
  };
}
