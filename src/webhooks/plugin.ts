// The one module a plugin's transform may import. Everything an integration author needs —
// the transform's types, Markdown escaping, links, time, list and pattern helpers — is re-exported
// here, so plugins never reach into other files of src/ (ESLint enforces it).
export type { TransformContext, TransformFn } from "./registry";
export { defineTransform, refusePayload } from "./registry";
// All of markdown.ts (escaping, links, length limits) is author-facing.
export * from "./safeMarkdown";
/** safeMarkdown(text): a transform's finished Markdown, inserted by `{{value}}` without escaping. */
export { markdownLink, safeMarkdown, type SafeMarkdown } from "./helpers";
export {
  branchName,
  changeList,
  colorMarker,
  compactDuration,
  durationBetween,
  firstText,
  nonEmptyText,
  scalarText,
  type FieldChange,
  codeBlock,
  codeSpan,
  commitList,
  firstLine,
  pluralize,
  quoteBlock,
  relativeTime,
  sentenceList,
  shortSha,
  toDate,
} from "./helpers";
export { isBranchFilteredOut, parsePatternList } from "./events";
export { readPath } from "./paths";
export {
  committersSummary,
  decodeHtmlEntities,
  durationInWords,
  giteaCommittersSummary,
  gitPushKind,
  htmlToMarkdown,
  type GitPushKind,
} from "./pluginHelpers";
// Linear-time trims: a transform cleaning user text uses these, not `/\s+$/`-style patterns.
export { joinLines, trimEndChars, trimStartChars, withoutTrailingAngle } from "../text";
