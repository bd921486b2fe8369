// Sizes the server enforces on every message, wherever it comes from (API, webhooks, notices).
// A leaf module: the webhook pipeline and the message service both read these without importing
// each other.

/** Longest `search` narrow operand, in characters: longer searches are refused, never cut. */
export const MAX_SEARCH_QUERY_LENGTH = 500;
/** Most words (and quoted phrases) one `search` operand may hold; each is a full-text index lookup. */
export const MAX_SEARCH_TERMS = 20;

/** Longest message content, in characters (code points); longer content is cut, not refused. */
export const MAX_MESSAGE_LENGTH = 10000;
/** Longest topic, in characters (code points). */
export const MAX_TOPIC_LENGTH = 60;

/** A person's or bot's full name, in characters (the reference's 100). */
export const MAX_FULL_NAME_LENGTH = 100;
/** The shortest bot name the reference accepts, in characters. */
export const MIN_BOT_FULL_NAME_LENGTH = 2;
/** A bot's short name (the part of its email before `-bot@`), in characters. */
export const MAX_BOT_SHORT_NAME_LENGTH = 60;
