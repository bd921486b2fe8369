// Sizes the server enforces on every message, wherever it comes from (API, webhooks, notices).
// A leaf module: the webhook pipeline and the message service both read these without importing
// each other.

/** Longest message content, in characters (code points); longer content is cut, not refused. */
export const MAX_MESSAGE_LENGTH = 10000;
/** Longest topic, in characters (code points). */
export const MAX_TOPIC_LENGTH = 60;
