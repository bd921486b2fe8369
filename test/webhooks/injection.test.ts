// No injection from payloads, for EVERY loaded plugin: fixture cases that post a message are sent
// again with a sample of their string fields replaced by hostile values (mentions, wildcards,
// channel links, javascript: links, HTML, headings, quotes, fences, emphasis), through the real
// app; the stored message, as the server renders it, must contain none of them as live Markdown
// and no link that is not http(s).
//
// A payload's own Markdown body (fields passed to `quote`/`markdown`, such as an issue's
// description) keeps its formatting by design, so headings/quotes/fences/emphasis are only
// required to stay inert for fields whose name is not a body's (see BODY_FIELD) in plugins that are
// not meta-integrations (whose payload is the message itself); mentions, channel links,
// non-http(s) links and HTML must stay inert everywhere.
// Bounded: at most CASES_PER_PLUGIN cases per plugin, FIELDS_PER_CASE fields per case, one request
// each (de-duplication off: the same sample ids would otherwise count as one delivery).
import { encodeBody, loadFixtureCases, stringFields, type FixtureCase } from "../../src/webhooks/fixtures";
import type { Integration } from "../../src/webhooks/registry";
import { startTestServer, type TestServer } from "../support/harness";
import { pluginNames } from "../support/pluginFolders";
import { latestMessageId, postWebhook } from "../support/webhooks";

const CASES_PER_PLUGIN = 2;
const FIELDS_PER_CASE = 24;

/** Hostile value number `i` for field number `n` (each carries a token naming the field). */
const HOSTILE = [
  (t: string) => `@**all** ${t}`,
  (t: string) => `@*everyone* ${t}`,
  (t: string) => `@_**${t}**`,
  (t: string) => `#**general** ${t}`,
  (t: string) => `[${t}](javascript:alert(1))`,
  (t: string) => `<script>${t}</script>`,
  (t: string) => `# H${t}`,
  (t: string) => `> Q${t}`,
  (t: string) => "```\nF" + t + "\n```",
  (t: string) => `**B${t}** __U${t}__ *E${t}*`,
];
const URL_HOSTILE = "javascript:alert(1)";
const BODY_FIELD = /body|description|comment|text|message|content|note|markdown|details|summary|html|output|raw/i;

interface Leaf {
  path: (string | number)[];
  value: string;
}

function stringLeaves(value: unknown, at: (string | number)[] = []): Leaf[] {
  if (typeof value === "string") return [{ path: at, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...at, i]));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...at, k]));
  return [];
}

function setPath(root: unknown, at: (string | number)[], value: string): void {
  let node = root as Record<string | number, unknown>;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at[at.length - 1]] = value;
}

/** Paths that pick the event (changing them tests the event lookup, not escaping). */
function eventPaths(integration: Integration): string[] {
  const source = integration.manifest.eventSource;
  const dotted = (p: string) => (p.startsWith("/") ? p.slice(1).split("/").join(".") : p);
  return [
    ...("field" in source ? [dotted(source.field)] : []),
    ...(source.actionField ? [dotted(source.actionField)] : []),
  ];
}

interface Planted {
  token: string;
  kind: number;
  body: boolean;
  field: string;
}

/** Looks like prose (not an enum value, id or state a schema may restrict): spaces, capitals or length. */
const prose = (l: Leaf) => /\s|[A-Z]/.test(l.value) || l.value.length > 24 || /^https?:\/\//.test(l.value);

/**
 * A copy of the case's payload with a spread-out sample of its string fields made hostile: any
 * fields, or (`proseOnly`, when the schema refused the first try) only prose-like ones.
 */
function hostilePayload(
  integration: Integration,
  c: FixtureCase,
  proseOnly: boolean,
): { payload: unknown; planted: Planted[] } {
  const payload = structuredClone(c.payload);
  const skip = eventPaths(integration);
  const leaves = stringLeaves(payload).filter(
    (l) => !skip.includes(l.path.join(".")) && l.value.trim() !== "" && (!proseOnly || prose(l)),
  );
  const step = Math.max(1, Math.ceil(leaves.length / FIELDS_PER_CASE));
  const planted: Planted[] = [];
  leaves
    .filter((_, i) => i % step === 0)
    .forEach((leaf, n) => {
      const field = leaf.path.join(".");
      if (/^https?:\/\//.test(leaf.value)) {
        setPath(payload, leaf.path, URL_HOSTILE);
        return;
      }
      const token = `z${n}q`;
      const kind = n % HOSTILE.length;
      setPath(payload, leaf.path, HOSTILE[kind](token));
      planted.push({ token, kind, field, body: BODY_FIELD.test(String(leaf.path[leaf.path.length - 1])) });
    });
  return { payload, planted };
}

/** Raw Markdown without code spans, code blocks and link destinations (text there is never live). */
function outsideCode(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const m = /^\s{0,3}(`{3,}|~{3,})\s*(\S*)/.exec(line);
    if (fence !== undefined) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = undefined;
      continue;
    }
    if (m && !/^(quote|spoiler)$/i.test(m[2])) {
      fence = m[1];
      continue;
    }
    // Code spans, and link destinations (a URL is not Markdown: `](https://x/@*a*)` is inert).
    const unescaped = line.replace(/\\`/g, "'"); // an escaped backtick opens no code span
    lines.push(unescaped.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, "").replace(/\]\([^()\s]*\)/g, "]"));
  }
  return lines.join("\n");
}

/** Everything live that a hostile value produced in one stored message. */
function findings(content: string, html: string, planted: Planted[]): string[] {
  const out: string[] = [];
  const raw = outsideCode(content);
  if (/class="(user-mention|user-group-mention|topic-mention|stream|stream-topic|message-link)[" ]/.test(html))
    out.push("a live mention or channel link in the rendered HTML");
  for (const [, href] of html.matchAll(/href="([^"]*)"/g))
    if (!/^(https?:\/\/|mailto:)/i.test(href)) out.push(`a link to ${href}`); // e-mail addresses are linkified
  if (/<script/i.test(html)) out.push("a <script> element");
  for (const p of planted) {
    const t = p.token;
    const live: Record<number, boolean> = {
      0: raw.includes("@**all**"),
      1: raw.includes("@*everyone*"),
      2: raw.includes(`@_**${t}**`),
      3: raw.includes("#**general**"),
      4: new RegExp(`<a [^>]*>${t}</a>`).test(html),
      5: html.includes(`<script>${t}`),
      6: !p.body && new RegExp(`<h[1-6]>H${t}`).test(html),
      7: !p.body && new RegExp(`<blockquote>\\s*<p>Q${t}`).test(html),
      8: !p.body && new RegExp(`<code[^>]*>F${t}`).test(html),
      9: !p.body && new RegExp(`<(strong|em)>[BUE]${t}</\\1>`).test(html),
    };
    if (live[p.kind]) out.push(`field ${p.field}: ${HOSTILE[p.kind](t).replace(/\n/g, "⏎")} is live`);
  }
  return out;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_DEDUP_WINDOW_SECONDS: "0" }, { integrations: "all" });
});
afterAll(() => server.close());

// XML and raw-text bodies (.txt fixtures, sent byte for byte) have no JSON fields to plant values in.
const postsMessage = (c: FixtureCase) =>
  c.expected !== undefined &&
  !c.expected.error &&
  !c.expected.ignored &&
  !c.payloadPath.endsWith(".xml") &&
  !c.payloadPath.endsWith(".txt");

describe("hostile payload fields never become live Markdown", () => {
  // The plugins are the server's own (loaded once, in beforeAll); only their names are read here.
  for (const name of pluginNames()) {
    it(name, async () => {
      const integration = server.deps.integrations.get(name)!;
      const cases = loadFixtureCases(integration).filter(postsMessage);
      const problems: string[] = [];
      let checked = 0;
      // A meta-integration's payload is the message itself (Slack, Zapier…): formatting is by design.
      const metaIntegration = integration.manifest.categories.includes("meta-integration");
      for (const [c, proseOnly] of cases.flatMap((c) => [[c, false] as const, [c, true] as const])) {
        if (checked >= CASES_PER_PLUGIN) break;
        const { payload, planted } = hostilePayload(integration, c, proseOnly);
        if (metaIntegration) for (const p of planted) p.body = true;
        const queryMode = integration.manifest.contentType === "query";
        const encoded = queryMode
          ? { contentType: c.contentType, body: Buffer.alloc(0) }
          : encodeBody(integration, JSON.stringify(payload), c.expected?.contentType);
        const before = await latestMessageId(server);
        const res = await postWebhook(server, integration.name, {
          query: { stream: server.general.name, ...(queryMode ? stringFields(payload) : {}), ...c.expected?.query },
          headers: c.headers,
          body: encoded.body,
          contentType: encoded.contentType,
        });
        expect(res.status).toBeLessThan(500);
        const stored: { content: string; rendered_content: string }[] = await server
          .db("messages")
          .where("id", ">", before)
          .andWhere("sender_id", server.users.bot.id)
          .select("content", "rendered_content");
        if (stored.length === 0) continue; // the schema refused a hostile value: nothing to check
        checked++;
        for (const m of stored)
          problems.push(...findings(m.content, m.rendered_content, planted).map((f) => `${c.name}: ${f}`));
      }
      expect(problems).toEqual([]);
      // Every plugin with a message-posting fixture must have been checked at least once.
      if (cases.length > 0) expect(checked).toBeGreaterThan(0);
    });
  }
});
