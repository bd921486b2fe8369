// Property-based fuzzing of every REST route (fast-check, fixed seed, bounded runs). The routes
// are read from the routers themselves (@koa/router's `stack`); each route's parameter names and
// kinds are read from its route module's `name: P.kind(...)` declarations. Requests come as an
// administrator, a member or a guest (now and then with no credentials), with values of every
// shape, in the query, a form, a JSON body or multipart. Every answer must be the JSON envelope,
// never a 5xx, and a refused request must leave the main tables' row counts as they were.
// Bounded: 4 requests per route by default (seconds in all).
//   FUZZ_SEED=n FUZZ_RUNS=n FUZZ_TIMEOUT_MS=n npx jest test/fuzz/rest   → other values, more of them
//   FUZZ_STATS=file                                                      → one line per request (status)
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { apiRouter } from "../../src/api";
import { webhookRouter } from "../../src/api/webhooks";
import { userFilesRouter } from "../../src/api/userFiles";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import {
  anyJsonValue,
  anyNumberText,
  anyText,
  check,
  expectEnvelope,
  rowCounts,
  type Answer,
  type RowCounts,
} from "./support";

const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const API_DIR = path.resolve(__dirname, "../../src/api");

// zulip-js (loaded by other suites) may replace FormData; keep Node's own.
const NativeFormData = globalThis.FormData;

interface Route {
  method: string;
  path: string;
  pathParams: string[];
}

interface ParamDecl {
  name: string;
  kind: string;
  /** An enum's values. */
  values: string[];
  required: boolean;
}

/**
 * Route paths (as registered, without /api/v1) → the parameters their module declares: every
 * `name: P.kind(...)` (or `name: helper(...)`); required when the declaration
 * ends in `.required()`. A module's routes share its declarations.
 */
function declaredParams(): Map<string, ParamDecl[]> {
  const byPath = new Map<string, ParamDecl[]>();
  for (const file of fs.readdirSync(API_DIR).filter((f) => f.endsWith(".ts"))) {
    const source = fs.readFileSync(path.join(API_DIR, file), "utf8");
    const params = new Map<string, ParamDecl>();
    const matches = [...source.matchAll(/(?<=^\s+|[{,] )(\w+): (?:P\.(\w+)\b|(\w+)\()/gm)];
    matches.forEach((m, i) => {
      // The declaration ends where the next property (or the object) starts.
      const rest = source.slice(m.index + m[0].length, matches[i + 1]?.index ?? m.index + 400);
      const declaration = rest.split(/\n\s*(?:\w+: |\}\))|, \w+: (?:P\.|\w+\()/)[0];
      const kind = m[2] ?? "custom";
      const values = kind === "enum" ? [...(/\[([^\]]*)\]/.exec(declaration)?.[1] ?? "").matchAll(/"([^"]*)"/g)] : [];
      params.set(m[1], {
        name: m[1],
        kind,
        values: values.map((v) => v[1]),
        required: /\.required\(\)/.test(declaration),
      });
    });
    for (const m of source.matchAll(/router\.\w+\(\s*"([^"]+)"/g)) byPath.set(m[1], [...params.values()]);
  }
  return byPath;
}

// Longer runs (FUZZ_RUNS) need longer tests.
if (process.env.FUZZ_TIMEOUT_MS) jest.setTimeout(Number(process.env.FUZZ_TIMEOUT_MS));

let server: TestServer;
let routes: Route[];
let params: Map<string, ParamDecl[]>;
/** Ids that exist (messages, channels, users, fields…), so that some requests get past the lookups. */
let knownIds: number[];
let knownNames: string[];
let integrationNames: string[];
const stats: string[] = [];

beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["github", "helloworld"] });
  routes = [];
  for (const router of [apiRouter(server.deps), webhookRouter(server.deps), userFilesRouter(server.deps)]) {
    for (const layer of router.stack) {
      for (const method of layer.methods.filter((m) => m !== "HEAD")) {
        routes.push({
          method,
          path: String(layer.path),
          pathParams: [...new Set(layer.paramNames.map((p) => p.name))],
        });
      }
    }
  }
  params = declaredParams();
  const { admin, member } = server.users;
  const sent = await server.as(admin).post("/messages", { type: "stream", to: "general", topic: "t", content: "hi" });
  const dm = await server
    .as(admin)
    .post("/messages", { type: "private", to: JSON.stringify([member.id]), content: "x" });
  const field = await server.as(admin).post("/realm/profile_fields", { name: "Team", field_type: 1 });
  const filter = await server
    .as(admin)
    .post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" });
  const folder = await server.as(admin).post("/channel_folders/create", { name: "Folder", description: "" });
  knownIds = [
    sent.body.id,
    dm.body.id,
    field.body.id,
    filter.body.id,
    folder.body.channel_folder_id,
    server.general.id,
    ...Object.values(server.users).map((u) => u.id),
  ];
  integrationNames = server.deps.integrations.names();
  knownNames = [
    "general",
    "Team",
    "helloworld",
    "github",
    "hello",
    "goodbye",
    "push",
    "pull_request.opened",
    ...Object.values(server.users).map((u) => u.email),
  ];
});
afterAll(async () => {
  if (process.env.FUZZ_STATS) fs.writeFileSync(process.env.FUZZ_STATS, stats.join("\n"));
  await server.close();
});

// --- values ---------------------------------------------------------------------------------

const idText = () => fc.constantFrom(...knownIds).map(String);

/** Realistic values for parameters whose shape random values would almost never hit. */
function examples(name: string): string[] {
  const { member, admin } = server.users;
  const [messageId, , fieldId, filterId, folderId] = knownIds;
  const general = server.general.id;
  const table: Record<string, string[]> = {
    subscriptions: ['[{"name":"general"}]', '[{"name":"fuzz new","description":"d"}]', '["general"]'],
    add: ['[{"name":"fuzz two"}]'],
    delete: ['["fuzz two"]', '["general"]'],
    principals: [`[${member.id}]`, `["${member.email}"]`],
    data: [`[{"id":${fieldId},"value":"x"}]`, `[${fieldId}]`],
    order: [`[${fieldId}]`, `[${folderId}]`],
    ordered_linkifier_ids: [`[${filterId}]`],
    field_data: ['{"a":{"text":"A","order":"1"}}', '{"subtype":"github"}'],
    field_type: ["1", "2", "3", "4", "5", "6", "7", "8"],
    emoji_name: ["smile", "+1", "zulip", "octopus"],
    emoji_code: ["1f604", "zulip"],
    pattern: ["#(?P<id>[0-9]+)", "(?P<x>a+)+$", "(?P<n>[a-z]+)-(?P=n)"],
    url_template: ["https://example.com/{id}", "javascript:alert({x})", "https://example.com/{x}"],
    invitee_emails: ["new1@example.com, new2@example.com", admin.email],
    stream_ids: [`[${general}]`, "[]"],
    group_ids: ["[]", "[1]"],
    token: ["abcdef0123", "ff".repeat(2049)],
    appid: ["org.example.app"],
    secret: ["s3cret", ""],
    narrow: [
      '[{"operator":"channel","operand":"general"},{"operator":"topic","operand":"t"}]',
      `[{"operator":"dm","operand":[${member.id}]}]`,
      '[{"operator":"is","operand":"starred"}]',
      '[{"operator":"search","operand":"hi"}]',
      `[{"operator":"id","operand":${messageId}}]`,
      '[["channel","general"]]',
    ],
    anchor: ["newest", "oldest", "first_unread", String(messageId)],
    to: ["general", `[${member.id}]`, `["${member.email}"]`, String(general)],
    topic: ["t", "(no topic)", ""],
    content: ["hello **world** @**all** #**general** [x](/user_uploads/1/a/b.txt)", "```\ncode\n```"],
    event_types: ['["message","subscription","realm_emoji"]'],
    op: ["start", "stop", "add", "remove"],
    template: ["{{payload.featured_title}}", "{{#each x}}{{/each}}", "{{> partial}}"],
    body: ['{"featured_title":"T","featured_url":"https://e.com"}', "[]"],
    headers: ['{"X-GitHub-Event":"push"}'],
    query: ['{"stream":"general"}'],
    integration: ["helloworld", "github"],
    name: ["fuzz name", "Team"],
    stream: ["general"],
    stream_id: [String(general)],
    user_ids: [`[${member.id}]`],
    invite_link: ["https://localhost/join/abc/"],
  };
  return table[name] ?? [];
}

/** A value of the declared kind that could be valid. */
function plausible(decl: ParamDecl): fc.Arbitrary<string> {
  const known = examples(decl.name);
  const general = plausibleByKind(decl);
  return known.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, general) : general;
}

function plausibleByKind(decl: ParamDecl): fc.Arbitrary<string> {
  const ids = idText();
  switch (decl.kind) {
    case "enum":
      return decl.values.length ? fc.constantFrom(...decl.values) : anyText;
    case "bool":
      return fc.constantFrom("true", "false");
    case "int":
    case "jsonInt":
      return fc.oneof(ids, fc.integer({ min: -1, max: 10 }).map(String));
    case "json":
      return fc.oneof(
        fc.array(fc.constantFrom(...knownIds), { maxLength: 3 }).map((a) => JSON.stringify(a)),
        fc.constantFrom(...knownNames).map((name) => JSON.stringify([{ name }])),
        fc.constantFrom(...knownNames).map((n) => JSON.stringify([{ operator: "channel", operand: n }])),
        fc.constantFrom(...knownIds).map((id) => JSON.stringify({ direct_members: [id], direct_subgroups: [] })),
        anyJsonValue.map((v) => JSON.stringify(v)),
      );
    default:
      return fc.oneof(fc.constantFrom(...knownNames), ids, fc.constantFrom("stream", "private", "newest", "[]"));
  }
}

function pathValue(name: string): fc.Arbitrary<string> {
  const likely = /^(name|integration)$/.test(name)
    ? fc.constantFrom(...integrationNames)
    : /name|event_key/.test(name)
      ? fc.constantFrom(...knownNames)
      : idText();
  const plain = fc.oneof({ weight: 3, arbitrary: likely }, anyText, anyNumberText);
  // Wildcards (`{*path_id}`) may hold slashes and dot segments.
  if (name === "path_id" || name === "file")
    return fc.oneof(
      plain,
      fc.array(plain, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/")),
    );
  return plain;
}

// --- requests -------------------------------------------------------------------------------

type Role = "admin" | "member" | "guest" | "anonymous";
type Encoding = "query" | "form" | "json" | "json-values" | "multipart";

interface FuzzRequest {
  role: Role;
  encoding: Encoding;
  pathValues: string[];
  params: Record<string, string>;
  withFile: boolean;
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD's, as any client would send). */
function percent(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(ch) ? ch : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

const formEncode = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${percent(k)}=${percent(v)}`)
    .join("&");

function fillPath(route: Route, values: string[]): string {
  let filled = route.path;
  route.pathParams.forEach((name, i) => {
    const value =
      name === "path_id" || name === "file" ? values[i].split("/").map(percent).join("/") : percent(values[i]);
    filled = filled.replace(`{*${name}}`, value || "x").replace(new RegExp(`:${name}(?=/|$)`), value || "x");
  });
  return filled;
}

/**
 * Mostly-valid requests with a few hostile parts: every required parameter and some optional ones
 * get a plausible value, then up to two parameters get any value (or are dropped), and an
 * undeclared one may join. Entirely random parameters would rarely get past the first check.
 */
function requestArb(route: Route): fc.Arbitrary<FuzzRequest> {
  const decls = params.get(route.path.replace(/^\/api\/v1/, "")) ?? [];
  const hostile = fc.oneof(
    { weight: 3, arbitrary: anyText },
    { weight: 1, arbitrary: anyNumberText },
    { weight: 1, arbitrary: anyJsonValue.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constant(undefined) }, // dropped
  );
  const fields = fc
    .record({
      plausible: fc.tuple(...decls.map(plausible)),
      // Each optional parameter in one request out of four.
      optional: fc.array(
        fc.nat(3).map((n) => n === 0),
        { minLength: decls.length, maxLength: decls.length },
      ),
      hostile: fc.array(fc.tuple(fc.nat(), hostile), { maxLength: 2 }),
      extra: fc.dictionary(fc.string({ maxLength: 8 }), anyText, { maxKeys: 1 }),
    })
    .map(({ plausible: values, optional, hostile: changes, extra }) => {
      const out: Record<string, string> = { ...extra };
      decls.forEach((d, i) => {
        if (d.required || optional[i]) out[d.name] = values[i];
      });
      for (const [index, value] of changes) {
        if (decls.length === 0) break;
        const name = decls[index % decls.length].name;
        if (value === undefined) delete out[name];
        else out[name] = value;
      }
      return out;
    });
  return fc.record({
    role: fc.oneof(
      { weight: 3, arbitrary: fc.constant<Role>("admin") },
      { weight: 3, arbitrary: fc.constantFrom<Role>("member", "guest") },
      { weight: 1, arbitrary: fc.constant<Role>("anonymous") },
    ),
    encoding: fc.constantFrom<Encoding>("query", "form", "json", "json-values", "multipart"),
    pathValues: fc.tuple(...route.pathParams.map(pathValue)),
    params: fields,
    withFile: fc.boolean(),
  });
}

function authHeader(role: Role): Record<string, string> {
  if (role === "anonymous") return {};
  const user: TestUser = server.users[role];
  return { authorization: "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64") };
}

/** JSON values where the text is JSON (a JSON body may carry arrays and objects as themselves). */
function asJsonValues(fields: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => {
      try {
        return [k, JSON.parse(v)];
      } catch {
        return [k, v];
      }
    }),
  );
}

async function send(route: Route, req: FuzzRequest): Promise<Answer> {
  const headers = authHeader(req.role);
  const bodyless = route.method === "GET";
  const encoding = bodyless ? "query" : req.encoding;
  let url = `${server.url}${fillPath(route, req.pathValues)}`;
  let body: string | FormData | undefined;
  if (encoding === "query") {
    const query = formEncode(req.params);
    if (query) url += `?${query}`;
  } else if (encoding === "form") {
    body = formEncode(req.params);
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (encoding === "json" || encoding === "json-values") {
    body = JSON.stringify(encoding === "json" ? req.params : asJsonValues(req.params));
    headers["content-type"] = "application/json";
  } else {
    const form = new NativeFormData();
    for (const [k, v] of Object.entries(req.params)) form.append(k, v);
    if (req.withFile) form.append("file", new Blob([Buffer.from("GIF89a fuzz")], { type: "image/gif" }), "f.gif");
    body = form;
  }
  const res = await fetch(url, { method: route.method, headers, body });
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
}

const notificationBot = () => Number(server.realm.notification_bot_id);

/** Files are served as themselves; everything else is the envelope. */
const servesFiles = (route: Route) => /user_uploads\/\{|user_avatars/.test(route.path);

async function fuzzRoute(route: Route): Promise<void> {
  const label = `${route.method} ${route.path}`;
  await check(
    label,
    requestArb(route),
    async (req) => {
      const writes = route.method !== "GET";
      // A misconfigured webhook earns its owner a direct message from the Notification Bot, by design.
      const notices = route.path.startsWith("/api/v1/external") ? notificationBot() : undefined;
      const before: RowCounts | undefined = writes ? await rowCounts(server, notices) : undefined;
      const answer = await send(route, req);
      if (process.env.FUZZ_STATS) stats.push(`${label} ${req.role} ${answer.status} ${answer.text.slice(0, 80)}`);
      const description = `${label} as ${req.role} (${req.encoding})`;
      if (servesFiles(route) && answer.status < 300) return;
      const body = expectEnvelope(description, answer);
      if (answer.status < 400 || before === undefined) return;
      const after = await rowCounts(server, notices);
      // Invitations to several addresses: the reference keeps those that worked and reports the rest.
      if (body.code === "INVITATION_FAILED" && body.sent_invitations === true) after.invitations = before.invitations;
      expect({ [description]: after }).toEqual({ [description]: before });
    },
    RUNS,
  );
}

/** Route groups by area (the first path segment after /api/v1), one test each. */
function areas(): Map<string, Route[]> {
  const out = new Map<string, Route[]>();
  for (const route of routes) {
    const area = route.path.replace(/^\/api\/v1/, "").split("/")[1] ?? "";
    out.set(area, [...(out.get(area) ?? []), route]);
  }
  return out;
}

// The route list exists only once the server is up, so the tests are one per area, named here.
const AREAS = [
  "server_settings",
  "messages",
  "register",
  "events",
  "streams",
  "get_stream_id",
  "users",
  "bots",
  "integrations",
  "realm",
  "register_client_device",
  "typing",
  "channel_folders",
  "user_uploads",
  "attachments",
  "invites",
  "webhooks",
  "external",
  "user_avatars",
  "mark_all_as_read",
  "mark_stream_as_read",
  "mark_topic_as_read",
  "bot_storage",
  "fetch_api_key",
  "settings",
  "user_groups",
  "user_topics",
];

describe.each(AREAS)("every %s route", (area) => {
  it("answers any parameters with the envelope, no 5xx, no partial rows", async () => {
    const group = areas().get(area);
    expect(group?.length).toBeGreaterThan(0);
    for (const route of group!) await fuzzRoute(route);
  });
});

it("covers every registered route", () => {
  const covered = routes.filter((r) => AREAS.includes(r.path.replace(/^\/api\/v1/, "").split("/")[1] ?? ""));
  expect(covered).toEqual(routes);
});
