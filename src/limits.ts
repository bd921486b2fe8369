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

/** An outgoing-webhook bot's payload URL, in characters (the column's size). */
export const MAX_PAYLOAD_URL_LENGTH = 2000;
/** How long one outgoing-webhook request may take, answer included (the reference's default 10 s). */
export const OUTGOING_WEBHOOK_TIMEOUT_SECONDS = 10;
/** Retries after a timeout or connection error (the reference's MAX_REQUEST_RETRIES: 4 attempts in all). */
export const OUTGOING_WEBHOOK_MAX_RETRIES = 3;
/** Pause before the first retry; each further retry waits twice as long (1 s, 2 s, 4 s). */
export const OUTGOING_WEBHOOK_RETRY_BACKOFF_MS = 1000;
/** The largest answer read from an outgoing-webhook bot; a longer one is a failure, not a reply. */
export const OUTGOING_WEBHOOK_MAX_RESPONSE_BYTES = 256 * 1024;
/** Outgoing-webhook deliveries one process runs at once; more wait their turn in memory. */
export const OUTGOING_WEBHOOK_CONCURRENCY = 16;
/** Deliveries waiting their turn in one process; past it new triggers are dropped (and logged). */
export const OUTGOING_WEBHOOK_MAX_PENDING = 1000;

/** Parts one multipart webhook body may have (a JSON part, a few text fields and files); more is a 400. */
export const MAX_WEBHOOK_MULTIPART_PARTS = 64;
/** A JSON-path URL option (`title=$.alert.name`), in characters, and the segments it may have. */
export const MAX_JSON_PATH_LENGTH = 200;
export const MAX_JSON_PATH_SEGMENTS = 32;
/**
 * API requests one delivery may make, all at once: a plugin's lookups (manifest `api.lookups`),
 * each per-id lookup counted at its `max`; the loader refuses a manifest that could make more.
 */
export const MAX_API_LOOKUPS = 16;
/** The most ids one per-id lookup (`idsFrom`) may ask about per delivery (its `max`); later ids stay ids. */
export const API_LOOKUP_MAX_IDS = 10;
/** The longest id a per-id lookup asks about, in characters: a longer match is not requested. */
export const API_LOOKUP_MAX_ID_CHARS = 64;
/** The longest `idsFrom.pattern`, in characters (RE2 runs it in linear time over the payload's text). */
export const API_LOOKUP_MAX_PATTERN_CHARS = 200;
/** A URL option's fixed values (manifest `urlOptions[].values`), each at most 100 characters: the 400 lists them all. */
export const MAX_URL_OPTION_VALUES = 20;
/** How long a delivery's API lookups may take together; the message then says what the payload says. */
export const API_LOOKUP_TIMEOUT_MS = 5000;
/** The largest API answer read for a lookup; a longer one counts as no answer. */
export const API_LOOKUP_MAX_RESPONSE_BYTES = 256 * 1024;
/** The longest lookup path (placeholders filled): a longer one is not requested. */
export const API_LOOKUP_MAX_PATH_CHARS = 2048;
/** The longest value a set-up probe echoes (manifest `setupProbe.echoQuery`, Dropbox's challenge); longer is a 400. */
export const MAX_SETUP_PROBE_ECHO_CHARS = 1000;
/** Extra fields a plugin's success answer may carry (manifest `reply`), and the length of each value. */
export const MAX_WEBHOOK_REPLY_FIELDS = 8;
export const MAX_WEBHOOK_REPLY_FIELD_CHARS = 1000;
/** Distinct channels one delivery's messages may name (manifest `channel`); more is a 400, nothing posted. */
export const MAX_WEBHOOK_DELIVERY_CHANNELS = 10;
/** Amazon SNS (manifest `verification: "aws-sns"`): how long fetching a signing certificate may take. */
export const SNS_CERT_TIMEOUT_MS = 5000;
/** The largest signing certificate read (AWS's are about 2 KiB of PEM); a longer answer is refused. */
export const SNS_CERT_MAX_BYTES = 16 * 1024;
/** Signing certificates kept in memory by URL; the oldest goes first (AWS uses a handful per region). */
export const SNS_CERT_CACHE_MAX_ENTRIES = 64;
/** How long the opt-in confirmation's GET of a SubscribeURL may take; the message then gives the link. */
export const SNS_CONFIRM_TIMEOUT_MS = 5000;
/** The most of a ConfirmSubscription answer read (its status is what counts). */
export const SNS_CONFIRM_MAX_RESPONSE_BYTES = 64 * 1024;
