// Per-id API lookups (manifest `api.lookups.<name>.idsFrom`): the ids found in a payload text
// (distinct, in order, bounded in length and number), the requests a delivery plans (never more
// than MAX_API_LOOKUPS), the answers by id, and the loader's refusals of a bad per-id lookup, each
// naming the field. The requests themselves are tested over HTTP in test/webhooks/slack.test.ts.
import path from "node:path";
import { fillPath } from "../../src/services/webhooks/apiLookup";
import { API_LOOKUP_MAX_ID_CHARS, API_LOOKUP_MAX_IDS, MAX_API_LOOKUPS } from "../../src/limits";
import { collectAnswers, idsIn, planLookups } from "../../src/webhooks/apiLookupIds";
import { IntegrationLoadError, loadIntegrationFolder } from "../../src/webhooks/loader";
import type { ApiSpec } from "../../src/webhooks/manifest";
import { goodPlugin, useTempDir, writeFiles } from "../support/pluginFolders";

const USERS = { field: "event.text", pattern: "<@([UW][A-Z0-9]+)>" };
const payload = (text: unknown) => ({ event: { user: "U0SENDER01", text } });

describe("idsIn", () => {
  it("finds each distinct id once, in the order they first appear", () => {
    const text = "<@U0TOMASZ01> and <@W0INES001>, again <@U0TOMASZ01>; labelled <@U0LABEL01|lab> is not one";
    expect(idsIn(payload(text), USERS, 10)).toEqual(["U0TOMASZ01", "W0INES001"]);
  });

  it("stops at max distinct ids, however often one repeats", () => {
    const text = "<@U1> <@U1> <@U1> <@U2> <@U3> <@U4>";
    expect(idsIn(payload(text), USERS, 2)).toEqual(["U1", "U2"]);
  });

  it("skips an id longer than API_LOOKUP_MAX_ID_CHARS without counting it", () => {
    const long = `U${"A".repeat(API_LOOKUP_MAX_ID_CHARS)}`;
    expect(idsIn(payload(`<@${long}> <@U2>`), USERS, 1)).toEqual(["U2"]);
    expect(idsIn(payload(`<@U${"A".repeat(API_LOOKUP_MAX_ID_CHARS - 1)}>`), USERS, 1)).toHaveLength(1);
  });

  it("finds nothing in a missing or non-string field", () => {
    expect(idsIn(payload(undefined), USERS, 5)).toEqual([]);
    expect(idsIn(payload(42), USERS, 5)).toEqual([]);
    expect(idsIn({}, USERS, 5)).toEqual([]);
  });

  it("scans a long hostile text in linear time (RE2)", () => {
    const text = `${"<@U".repeat(200_000)}${"<@".repeat(200_000)}<@U9>`;
    const started = Date.now();
    expect(idsIn(payload(text), USERS, 10)).toEqual(["U9"]);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("planLookups and collectAnswers", () => {
  const spec = (lookups: ApiSpec["lookups"]): ApiSpec => ({
    host: "slack.example",
    tokenOption: "token",
    authHeader: "Authorization",
    lookups,
  });

  it("plans each plain lookup, then one request per id; answers are read by id, unanswered ids left out", () => {
    const planned = planLookups(
      spec({
        user: "/users?user={event.user}",
        mentioned: { path: "/users?user={id}", idsFrom: USERS, max: 5 },
      }),
      payload("<@U0A> <@U0B> <@U0A>"),
    );
    expect(planned).toEqual([
      { name: "user", path: "/users?user={event.user}" },
      { name: "mentioned", path: "/users?user={id}", id: "U0A" },
      { name: "mentioned", path: "/users?user={id}", id: "U0B" },
    ]);
    expect(fillPath(planned[1].path, payload(""), { id: planned[1].id! })).toBe("/users?user=U0A");
    const answers = collectAnswers([
      [planned[0], { name: "sender" }],
      [planned[1], { name: "a" }],
      [planned[2], undefined],
    ]);
    expect(answers).toEqual({ user: { name: "sender" }, mentioned: { U0A: { name: "a" } } });
  });

  it("never plans more than MAX_API_LOOKUPS requests", () => {
    const lookups: ApiSpec["lookups"] = {
      a: { path: "/a/{id}", idsFrom: { field: "event.text", pattern: "u(\\d+)" }, max: API_LOOKUP_MAX_IDS },
      b: { path: "/b/{id}", idsFrom: { field: "event.text", pattern: "u(\\d+)" }, max: API_LOOKUP_MAX_IDS },
    };
    const text = Array.from({ length: 30 }, (_, i) => `u${i}`).join(" ");
    expect(planLookups(spec(lookups), payload(text))).toHaveLength(Math.min(MAX_API_LOOKUPS, 2 * API_LOOKUP_MAX_IDS));
  });

  it("keeps an id such as __proto__ an ordinary key", () => {
    const planned = { name: "m", path: "/u/{id}", id: "__proto__" };
    const answers = collectAnswers([[planned, { polluted: true }]]) as { m: Record<string, unknown> };
    expect(Object.keys(answers.m)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("loader: per-id lookups", () => {
  const tmp = useTempDir("sb-idlookups-");
  const schema = JSON.stringify({
    type: "object",
    properties: { event: { type: "object", properties: { text: { type: "string" } } } },
  });
  const problems = (lookups: Record<string, unknown>): string[] => {
    const dir = path.join(tmp.dir(), "integrations", "demo");
    writeFiles(
      dir,
      goodPlugin(
        "demo",
        { "schema.json": schema, "templates/hello.hbs": "Hello {{api.mentioned.U1.name}}" },
        {
          urlOptions: [{ key: "demo_token", description: "t" }],
          api: { host: "api.demo.example", tokenOption: "demo_token", authHeader: "Authorization", lookups },
        },
      ),
    );
    try {
      loadIntegrationFolder(dir, tmp.dir());
    } catch (err) {
      return (err as IntegrationLoadError).problems;
    }
    return [];
  };
  const lookup = (over: Record<string, unknown> = {}, idsFrom: Record<string, unknown> = {}) => ({
    mentioned: { path: "/users/{id}", idsFrom: { ...USERS, ...idsFrom }, max: 5, ...over },
  });
  const at = "integrations/demo/integration.json: /api/lookups/mentioned";

  it("loads a per-id lookup whose pattern, field, path and max are right", () => {
    expect(problems(lookup())).toEqual([]);
  });

  it("refuses a pattern RE2 cannot compile (a backreference), with RE2's reason", () => {
    expect(problems(lookup({}, { pattern: "<@(U\\d+)>\\1" }))).toEqual([
      `${at}/idsFrom/pattern: does not compile in RE2: invalid escape sequence: \\1`,
    ]);
  });

  it("refuses a pattern without exactly one capture group", () => {
    expect(problems(lookup({}, { pattern: "<@U\\d+>" }))).toEqual([
      `${at}/idsFrom/pattern: has 0 capture groups: exactly one (the id) is needed; write other groups as (?:…)`,
    ]);
    expect(problems(lookup({}, { pattern: "<(@|#)(\\w+)>" }))).toEqual([
      `${at}/idsFrom/pattern: has 2 capture groups: exactly one (the id) is needed; write other groups as (?:…)`,
    ]);
  });

  it("refuses a pattern that matches the empty text", () => {
    expect(problems(lookup({}, { pattern: "(\\w*)" }))).toEqual([
      `${at}/idsFrom/pattern: matches the empty text: it must need at least the id`,
    ]);
  });

  it("refuses a field the schema does not declare", () => {
    expect(problems(lookup({}, { field: "event.body" }))).toEqual([
      `${at}/idsFrom/field: 'event.body' is not declared in schema.json`,
    ]);
  });

  it("refuses a path without {id} exactly once", () => {
    expect(problems(lookup({ path: "/users" }))).toEqual([
      `${at}/path: a per-id lookup's path must hold {id} exactly once (it has 0)`,
    ]);
    expect(problems(lookup({ path: "/users/{id}/{id}" }))).toEqual([
      `${at}/path: a per-id lookup's path must hold {id} exactly once (it has 2)`,
    ]);
  });

  it("refuses idsFrom without max, max above API_LOOKUP_MAX_IDS, and max without idsFrom", () => {
    expect(problems({ mentioned: { path: "/users/{id}", idsFrom: USERS } })).toContain(
      `${at}: must have property max when property idsFrom is present`,
    );
    expect(problems(lookup({ max: API_LOOKUP_MAX_IDS + 1 }))).toContain(`${at}/max: must be <= ${API_LOOKUP_MAX_IDS}`);
    expect(problems({ mentioned: { path: "/users/x", max: 2 } })).toContain(
      `${at}: must have property idsFrom when property max is present`,
    );
  });

  it("refuses lookups whose worst case is more than MAX_API_LOOKUPS requests a delivery", () => {
    const many = Object.fromEntries(
      Array.from({ length: 2 }, (_, i) => [`m${i}`, { path: "/u/{id}", idsFrom: USERS, max: API_LOOKUP_MAX_IDS }]),
    );
    expect(problems({ ...many, plain: "/p" })).toEqual([
      `integrations/demo/integration.json: /api/lookups: up to ${2 * API_LOOKUP_MAX_IDS + 1} requests a delivery ` +
        `(each lookup once, each per-id lookup at its max), more than MAX_API_LOOKUPS (${MAX_API_LOOKUPS}): lower the max`,
    ]);
  });
});
