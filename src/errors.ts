// The one error type of the API, and the catalogue of Zulip error codes we emit.
// Every code appears once here with its HTTP status; callers use the small factories.

export type ErrorCode =
  | "BAD_REQUEST"
  | "REQUEST_VARIABLE_MISSING"
  | "REQUEST_VARIABLE_INVALID"
  | "REQUEST_CONFUSING_VAR"
  | "INVALID_JSON"
  | "INVALID_API_KEY"
  | "UNAUTHORIZED"
  | "USER_DEACTIVATED"
  | "REALM_DEACTIVATED"
  | "RATE_LIMIT_HIT"
  | "UNAUTHORIZED_PRINCIPAL"
  | "STREAM_DOES_NOT_EXIST"
  | "NOT_FOUND"
  | "REQUEST_TOO_LARGE"
  | "INTERNAL_SERVER_ERROR"
  | "REACTION_ALREADY_EXISTS"
  | "REACTION_DOES_NOT_EXIST"
  | "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED"
  | "INVITATION_FAILED"
  | "MISSING_HTTP_EVENT_HEADER"
  | "UNSUPPORTED_WEBHOOK_EVENT_TYPE"
  | "INVALID_PAYLOAD"
  | "INVALID_SIGNATURE"
  | "STALE_SIGNATURE"
  | "INVALID_TEMPLATE"
  | "RENDER_LIMIT_EXCEEDED"
  | "BAD_EVENT_QUEUE_ID"
  | "METHOD_NOT_ALLOWED"
  | "REQUEST_HEADERS_TOO_LARGE"
  | "SERVICE_UNAVAILABLE"
  | "COMMIT_OUTCOME_UNKNOWN"
  | "AUTHENTICATION_FAILED"
  | "CSRF_FAILED"
  | "PERMISSION_DENIED";

/** HTTP status for each code when the caller does not pick one. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  REQUEST_VARIABLE_MISSING: 400,
  REQUEST_VARIABLE_INVALID: 400,
  REQUEST_CONFUSING_VAR: 400,
  INVALID_JSON: 400,
  INVALID_API_KEY: 401,
  UNAUTHORIZED: 401,
  USER_DEACTIVATED: 401,
  REALM_DEACTIVATED: 401,
  RATE_LIMIT_HIT: 429,
  UNAUTHORIZED_PRINCIPAL: 400,
  STREAM_DOES_NOT_EXIST: 400,
  NOT_FOUND: 404,
  REQUEST_TOO_LARGE: 413,
  INTERNAL_SERVER_ERROR: 500,
  REACTION_ALREADY_EXISTS: 400,
  REACTION_DOES_NOT_EXIST: 400,
  MOVE_MESSAGES_TIME_LIMIT_EXCEEDED: 400,
  INVITATION_FAILED: 400,
  MISSING_HTTP_EVENT_HEADER: 400,
  // The reference answers unsupported webhook events with 200 so senders keep the hook enabled.
  UNSUPPORTED_WEBHOOK_EVENT_TYPE: 200,
  INVALID_PAYLOAD: 400,
  INVALID_SIGNATURE: 401,
  STALE_SIGNATURE: 401,
  INVALID_TEMPLATE: 400,
  RENDER_LIMIT_EXCEEDED: 400,
  BAD_EVENT_QUEUE_ID: 400,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_HEADERS_TOO_LARGE: 431,
  SERVICE_UNAVAILABLE: 503,
  COMMIT_OUTCOME_UNKNOWN: 503,
  AUTHENTICATION_FAILED: 401,
  CSRF_FAILED: 403,
  PERMISSION_DENIED: 400,
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    msg: string,
    extra: Record<string, unknown> = {},
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.extra = extra;
    this.headers = options.headers ?? {};
  }
}

export const Errors = {
  badRequest: (msg: string, extra: Record<string, unknown> = {}) => new ApiError("BAD_REQUEST", msg, extra),
  missingParam: (name: string) =>
    new ApiError("REQUEST_VARIABLE_MISSING", `Missing '${name}' argument`, { var_name: name }),
  invalidParam: (name: string, msg: string) => new ApiError("BAD_REQUEST", msg, { var_name: name }),
  invalidJsonParam: (name: string) =>
    new ApiError("BAD_REQUEST", `Argument "${name}" is not valid JSON.`, { var_name: name }),
  confusingVar: (a: string, b: string) =>
    new ApiError("REQUEST_CONFUSING_VAR", `Can't decide between '${a}' and '${b}' arguments`),
  malformedJson: () => new ApiError("INVALID_JSON", "Malformed JSON"),
  notLoggedIn: () => Errors.unauthorized("Not logged in: API authentication or user session required"),
  // A 401 names a scheme browsers do not prompt for: a Basic challenge made browsers ask for and cache
  // credentials, which they then sent along with other sites' forms (docs/security.md). Clients send
  // their Basic credentials without waiting for a challenge.
  unauthorized: (msg: string): ApiError =>
    new ApiError("UNAUTHORIZED", msg, {}, { headers: { "WWW-Authenticate": 'Session realm="zulip"' } }),
  malformedApiKey: () => new ApiError("INVALID_API_KEY", "Malformed API key"),
  invalidApiKey: () => new ApiError("INVALID_API_KEY", "Invalid API key"),
  /** The connection died during COMMIT and the checks that followed could not reach the database either. */
  commitOutcomeUnknown: (checks: number) =>
    new ApiError(
      "COMMIT_OUTCOME_UNKNOWN",
      "The database connection was lost while the message was being stored, and whether it was stored " +
        `could not be determined (${checks} checks): look for it (GET /messages) before sending it again`,
      { checks },
    ),
  userDeactivated: () => new ApiError("USER_DEACTIVATED", "Account is deactivated"),
  realmDeactivated: () => new ApiError("REALM_DEACTIVATED", "This organization has been deactivated"),
  wrongSubdomain: () => new ApiError("UNAUTHORIZED", "Account is not associated with this subdomain"),
  mustBeAdmin: () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"),
  mustBeOwner: () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"),
  mustBeMember: () => new ApiError("UNAUTHORIZED_PRINCIPAL", "Must be an organization member"),
  accessDenied: () => new ApiError("BAD_REQUEST", "Access denied", {}, { status: 403 }),
  notAuthorized: () => new ApiError("BAD_REQUEST", "User not authorized for this query"),
  streamNameNotFound: (name: string) =>
    new ApiError("STREAM_DOES_NOT_EXIST", `Channel '${name}' does not exist`, { stream: name }),
  streamIdNotFound: (id: number | string) =>
    new ApiError("STREAM_DOES_NOT_EXIST", `Channel with ID '${id}' does not exist`, { stream_id: id }),
  invalidMessage: () => new ApiError("BAD_REQUEST", "Invalid message(s)"),
  /** Some of a topic's messages are past the move time limit (the reference's fields say which may move). */
  moveTimeLimitExceeded: (allowed: number, total: number, firstAllowedId: number | null) =>
    new ApiError(
      "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
      `You only have permission to move the ${allowed}/${total} most recent messages in this topic.`,
      {
        first_message_id_allowed_to_move: firstAllowedId,
        total_messages_allowed_to_move: allowed,
        total_messages_in_topic: total,
      },
    ),
  notFound: (msg = "Endpoint not found") => new ApiError("NOT_FOUND", msg),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(
      "METHOD_NOT_ALLOWED",
      `Method ${method} is not allowed here${allowed.length ? `; allowed: ${allowed.join(", ")}` : ""}`,
      { allowed_methods: allowed },
      { headers: allowed.length ? { Allow: allowed.join(", ") } : {} },
    ),
  /** A JSON body or parameter nested past MAX_JSON_DEPTH (src/json.ts's JsonTooDeepError). */
  jsonTooDeep: (err: { message: string; limit: number }) =>
    new ApiError("BAD_REQUEST", err.message, { limit: err.limit }),
  tooLarge: (what: string, limit: number) =>
    new ApiError("REQUEST_TOO_LARGE", `${what} is too large: the limit is ${limit} bytes`, { limit }),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(
      "RATE_LIMIT_HIT",
      "API usage exceeded rate limit",
      { "retry-after": retryAfterSeconds },
      {
        headers: { "Retry-After": String(Math.ceil(retryAfterSeconds)) },
      },
    ),
  /** fetch_api_key / sign-in with a wrong email or password (the reference's code and text). */
  authenticationFailed: () => new ApiError("AUTHENTICATION_FAILED", "Your username or password is incorrect"),
  /** A password that fails the strength rule (services/users/passwords.ts); `problem` says which part. */
  weakPassword: (name: string, problem: string) =>
    new ApiError("BAD_REQUEST", `New password is too weak: ${problem}`, { var_name: name }),
  /** A cookie-authenticated change without its session's token, or a browser request from another site. */
  csrfFailed: (reason: string) => new ApiError("CSRF_FAILED", `CSRF error: ${reason}`),
  /** The reference's refusal of a route meant for another kind of account (e.g. bot storage for a human). */
  permissionDenied: (msg: string) => new ApiError("PERMISSION_DENIED", msg),
  webhookBotNotAllowed: () => new ApiError("BAD_REQUEST", "This API is not available to incoming webhook bots."),
  /** An event the webhook does not declare: a 200 with this code, as in the reference. */
  /**
   * A 200 answer too, so it carries the plugin's answer fields (manifest `reply`: a service such as
   * HelloSign requires its text in every 200 body); its own code and fields stay.
   */
  unsupportedEvent: (webhookName: string, eventType: string, reply: Record<string, string> = {}) => {
    const { msg, ...fields } = reply;
    return new ApiError(
      "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      msg ?? `The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`,
      { ...fields, webhook_name: webhookName, event_type: eventType },
    );
  },
};
