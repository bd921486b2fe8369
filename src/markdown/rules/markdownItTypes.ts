// The markdown-it types the rules use, under one name each (the package's own 14.x has no types of
// its own; @types/markdown-it declares them inside the MarkdownIt namespace).
import type MarkdownIt from "markdown-it";

export type { MarkdownIt };
export type StateCore = MarkdownIt.StateCore;
export type StateBlock = MarkdownIt.StateBlock;
export type StateInline = MarkdownIt.StateInline;
export type Token = MarkdownIt.Token;
