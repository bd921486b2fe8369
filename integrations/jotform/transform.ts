// Jotform posts a submission as form fields: the answers as one `pretty` text
// ("Question:Answer, Question:Answer") and, in `rawRequest`, the submission as JSON text, where
// uploaded files are lists of URLs keyed by the question's camel-cased name. Splitting that text
// and matching the uploads to their questions is parsing, so it is code. Pure.
import { defineTransform, nonEmptyText } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

export interface Answer {
  question: string;
  answer: string;
  files: { name: string; url: string }[];
}

/** "Identity Proof", "identityProof" and "q5_identityProof" are the same question. */
const keyOf = (text: string) =>
  text
    .replace(/^q\d+_/, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/** "A:x, B:y, z" → [["A", "x"], ["B", "y, z"]]: a piece without a colon continues the answer before it. */
export function prettyPairs(pretty: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const piece of pretty.split(", ")) {
    const colon = piece.indexOf(":");
    const last = pairs[pairs.length - 1];
    if (colon > 0) pairs.push([piece.slice(0, colon).trim(), piece.slice(colon + 1).trim()]);
    else if (last) last[1] = `${last[1]}, ${piece.trim()}`;
  }
  return pairs.filter(([q, a]) => q !== "" && a !== "");
}

/** Upload lists in rawRequest: key → https URLs (other keys and unparsable text give nothing). */
export function uploads(rawRequest: string | undefined): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let raw: unknown;
  try {
    raw = rawRequest ? JSON.parse(rawRequest) : undefined;
  } catch {
    return found;
  }
  if (raw === null || typeof raw !== "object") return found;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(value)) continue;
    const urls = value.filter((v): v is string => typeof v === "string" && /^https:\/\//.test(v));
    if (urls.length > 0) found.set(keyOf(key), urls);
  }
  return found;
}

function fileName(url: string): string {
  const last = url.split("/").pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export default defineTransform<Payload, { answers: Answer[]; submissionUrl?: string }>((payload) => {
  const files = uploads(payload.rawRequest);
  const answers = prettyPairs(payload.pretty ?? "").map(([question, answer]) => {
    // A file question's key is usually its camel-cased text, but may be a name of its own
    // ("filesRelated"): then the list whose file names the answer shows is the one.
    const urls =
      files.get(keyOf(question)) ??
      [...files.values()].find((list) => list.every((url) => answer.includes(fileName(url)))) ??
      [];
    return { question, answer, files: urls.map((url) => ({ name: fileName(url), url })) };
  });
  const form = nonEmptyText(payload.formID);
  const submission = nonEmptyText(payload.submissionID);
  const submissionUrl =
    form && submission && /^\d+$/.test(form) && /^\d+$/.test(submission)
      ? `https://www.jotform.com/inbox/${form}/${submission}`
      : undefined;
  return { answers, submissionUrl };
});
