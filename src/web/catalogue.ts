// What the catalogue pages show about each integration, computed once per server from the loaded
// plugins: card fields, search text, events, URL options, the rendered doc and the test fixtures.
import fs from "node:fs";
import path from "node:path";
import { renderMarkdown } from "../markdown/markdown";
import { loadFixtureCases, type FixtureCase } from "../webhooks/fixtures";
import type { Integration, IntegrationRegistry } from "../webhooks/registry";

export interface UrlOptionView {
  key: string;
  description: string;
  default?: string;
}

export interface CatalogueItem {
  name: string;
  displayName: string;
  description: string;
  categories: string[];
  events: string[];
  ignoredEvents: string[];
  urlOptions: UrlOptionView[];
  /** Lower-case text the search box matches against (every word of the query must occur). */
  searchText: string;
  integration: Integration;
}

/** A fixture as the page's "send a test delivery" posts it to the preview endpoint. */
export interface TestFixture {
  name: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: string;
  body_encoding: "utf8" | "base64";
}

export function toItem(integration: Integration): CatalogueItem {
  const m = integration.manifest;
  const events = Object.entries(m.events).filter(([key]) => key !== "*");
  return {
    name: m.name,
    displayName: m.displayName,
    description: m.description,
    categories: m.categories,
    events: events.filter(([, spec]) => !spec.ignore).map(([key]) => key),
    ignoredEvents: events.filter(([, spec]) => spec.ignore).map(([key]) => key),
    urlOptions: (m.urlOptions ?? []).map((o) => ({ key: o.key, description: o.description, default: o.default })),
    searchText: [m.name, m.displayName, m.description, ...m.categories].join(" ").toLowerCase(),
    integration,
  };
}

/** Query words: lower case, split on white space (the page's script splits the same way). */
export function searchWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

export function matches(item: CatalogueItem, words: string[], category: string): boolean {
  if (category && !item.categories.includes(category)) return false;
  return words.every((w) => item.searchText.includes(w));
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function bodyText(body: Buffer): { body: string; body_encoding: "utf8" | "base64" } {
  try {
    return { body: utf8.decode(body), body_encoding: "utf8" };
  } catch {
    return { body: body.toString("base64"), body_encoding: "base64" };
  }
}

/** Cases that post a message: the ones worth sending as a test (errors and ignored cases are not). */
function postsMessage(c: FixtureCase): boolean {
  const e = c.expected;
  return Boolean(e && !e.error && !e.ignored && (e.content !== undefined || (e.messages?.length ?? 0) > 0));
}

export interface Catalogue {
  items: CatalogueItem[];
  categories: string[];
  get(name: string): CatalogueItem | undefined;
  /** doc.md as safe HTML (raw HTML in the doc is escaped), its leading title dropped (the page has one). */
  docHtml(item: CatalogueItem): string;
  fixtureNames(item: CatalogueItem): string[];
  fixture(item: CatalogueItem, name: string): TestFixture | undefined;
}

export function createCatalogue(registry: IntegrationRegistry, externalUrl: string): Catalogue {
  const items = registry.all().map(toItem);
  const byName = new Map(items.map((i) => [i.name, i]));
  const docs = new Map<string, string>();
  const cases = new Map<string, FixtureCase[]>();
  const casesOf = (item: CatalogueItem): FixtureCase[] => {
    if (!cases.has(item.name)) cases.set(item.name, loadFixtureCases(item.integration).filter(postsMessage));
    return cases.get(item.name)!;
  };
  return {
    items,
    categories: [...new Set(items.flatMap((i) => i.categories))].sort(),
    get: (name) => byName.get(name),
    docHtml(item) {
      if (!docs.has(item.name)) {
        const file = path.join(item.integration.dir, item.integration.manifest.docs ?? "doc.md");
        const source = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
        const text = source.replace(/^\s*# [^\n]*\n/, "").replace(/\{\{\s*api_url\s*\}\}/g, externalUrl);
        docs.set(item.name, renderMarkdown(text));
      }
      return docs.get(item.name)!;
    },
    fixtureNames: (item) => casesOf(item).map((c) => c.name),
    fixture(item, name) {
      const c = casesOf(item).find((x) => x.name === name);
      if (!c) return undefined;
      const headers = { ...c.headers, "Content-Type": c.contentType };
      return { name: c.name, headers, query: c.query, ...bodyText(c.body) };
    },
  };
}
