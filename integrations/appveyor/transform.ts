// AppVeyor gives durations as .NET TimeSpans ("00:02:54.1586505", "1.02:00:00" for over a day)
// and artifact lists per job; this makes the duration readable and gathers the artifacts.
// Kept as code: parsing a TimeSpan and gathering one list from every job's list (cut at five).

interface Artifact {
  fileName?: string;
  permalink?: string;
}

interface Payload {
  eventData?: { duration?: string | null; jobs?: { artifacts?: Artifact[] | null }[] | null };
}

const ARTIFACTS_SHOWN = 5;

/** "45 s", "2 min 54 s", "1 h 3 min" from a TimeSpan string; undefined when it does not parse. */
export function formatTimeSpan(value: unknown): string | undefined {
  const match = typeof value === "string" ? /^(?:(\d+)\.)?(\d+):(\d{2}):(\d{2})(?:\.\d+)?$/.exec(value.trim()) : null;
  if (!match) return undefined;
  const hours = Number(match[1] ?? 0) * 24 + Number(match[2]);
  const minutes = Number(match[3]);
  const seconds = Number(match[4]);
  if (hours > 0) return `${hours} h${minutes ? ` ${minutes} min` : ""}`;
  if (minutes > 0) return `${minutes} min${seconds ? ` ${seconds} s` : ""}`;
  return `${seconds} s`;
}

export default function transform(payload: Payload) {
  const artifacts = (payload.eventData?.jobs ?? [])
    .flatMap((job) => job.artifacts ?? [])
    .filter((a) => a.fileName)
    .map((a) => ({ name: a.fileName, url: a.permalink }));
  return {
    took: formatTimeSpan(payload.eventData?.duration),
    artifacts: artifacts.slice(0, ARTIFACTS_SHOWN),
    moreArtifacts: Math.max(0, artifacts.length - ARTIFACTS_SHOWN),
  };
}
