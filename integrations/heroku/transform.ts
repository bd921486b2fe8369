// Heroku's deploy hook sends the deployed commits as one text field, `git_log`, one
// "  * Author: subject" line per commit; this splits it into a list cut at ten lines. Kept as
// code: parsing a bulleted text (bullets removed, lines left empty by that dropped before the
// cut) is more than the template helpers do.

const COMMITS_SHOWN = 10;

export default function transform(payload: { git_log?: string }) {
  const lines = (payload.git_log ?? "")
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*[*-]\s*/, "").trim())
    .filter(Boolean);
  return { commits: lines.slice(0, COMMITS_SHOWN), moreCommits: Math.max(0, lines.length - COMMITS_SHOWN) };
}
