// TeamCity (tcWebHooks "Legacy Webhook (JSON)" format): the result and its delta (fixed,
// broken, still failing) become an emoji and verb; personal builds are recognised from the
// build's teamcityProperties (env.BUILD_IS_PERSONAL), so they can go to the bot's owner only.

interface Build {
  buildResult?: string;
  buildResultDelta?: string;
  notifyType?: string;
  buildStatusUrl?: string;
  teamcityProperties?: { name?: string; value?: string }[] | null;
}

function result(build: Build): { emoji: string; word: string } {
  const outcome = (build.buildResult ?? "").toLowerCase();
  const delta = (build.buildResultDelta ?? "").toLowerCase();
  if (build.notifyType === "buildInterrupted") return { emoji: ":stop_button:", word: "was interrupted" };
  if (build.notifyType === "buildStarted" || outcome === "running") return { emoji: ":gear:", word: "started" };
  if (outcome === "success")
    return delta === "fixed" ? { emoji: ":check:", word: "is fixed" } : { emoji: ":check:", word: "succeeded" };
  if (outcome === "failure")
    return delta === "broken"
      ? { emoji: ":cross_mark:", word: "broke" }
      : { emoji: ":cross_mark:", word: "is still failing" };
  return { emoji: ":question:", word: outcome ? `ended as ${outcome}` : "finished" };
}

export default function transform(payload: { build?: Build }) {
  const build = payload.build;
  if (!build || typeof build !== "object") return { misconfigured: true };
  const personal = (build.teamcityProperties ?? []).some(
    (p) => p?.name === "env.BUILD_IS_PERSONAL" && String(p.value).toLowerCase() === "true",
  );
  return {
    result: result(build),
    personal,
    changesUrl: build.buildStatusUrl ? `${build.buildStatusUrl}&tab=buildChangesDiv` : undefined,
  };
}
