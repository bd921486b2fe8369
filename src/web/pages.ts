// Server-rendered pages of the integrations catalogue. Everything a visitor reads works without
// JavaScript; the script (static/catalogue.js) adds instant filtering, the URL builder, the test
// delivery and the deliveries view. No inline scripts or styles: the CSP allows only 'self'.
import { counted, html, raw, type Html } from "./html";
import { withEmojiGlyphs } from "./emojiGlyphs";
import { matches, searchWords, type Catalogue, type CatalogueItem } from "./catalogue";
import type { DeliveryView, OwnedBot, PostedMessage } from "../services/webhooks/ownerView";
import type { WebSession } from "./session";

export interface Assets {
  css: string;
  js: string;
  icon: string;
}

export const BASE = "/integrations";

/** Who is signed in, and a sign-out button (a POST with the session's CSRF token); or a sign-in link. */
function accountNav(session: WebSession | undefined, page: string): Html {
  if (!session) return page === "login" ? html`` : html`<a href="/login/" id="sign-in-link">Sign in</a>`;
  return html`<span class="account">
    <span id="signed-in-user">${session.user.full_name}</span>
    <form method="post" action="/logout/">
      <input type="hidden" name="csrf_token" value="${session.csrfToken}" />
      <button type="submit" id="header-sign-out" class="secondary">Sign out</button>
    </form>
  </span>`;
}

/**
 * The page shell every server-rendered page shares (header, stylesheet, script). With a session the
 * header names the signed-in user, and the page carries its CSRF token for the script's API calls.
 */
export function layout(assets: Assets, title: string, main: Html, page: string, session?: WebSession): string {
  return `<!doctype html>\n${html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${title} · Switchboard integrations</title>
      <link rel="icon" href="${assets.icon}" type="image/svg+xml" />
      <link rel="stylesheet" href="${assets.css}" />
      <script src="${assets.js}" defer></script>
      ${session ? html`<meta name="csrf-token" content="${session.csrfToken}" />` : ""}
    </head>
    <body data-page="${page}">
      <a class="skip" href="#main">Skip to content</a>
      <header class="site">
        <nav aria-label="Site">
          <a href="${BASE}/" class="brand">Switchboard integrations</a>
          <a href="${BASE}/deliveries">Recent deliveries</a>
          <a href="/bots/">Your bots</a>
          ${accountNav(session, page)}
        </nav>
      </header>
      <main id="main" tabindex="-1">${main}</main>
    </body>
  </html>`}\n`;
}

function categoryList(item: CatalogueItem): Html {
  return html`<ul class="tags" aria-label="Categories">
    ${item.categories.map((c) => html`<li>${c}</li>`)}
  </ul>`;
}

function card(item: CatalogueItem, visible: boolean): Html {
  return html`<li
    class="card"
    data-search="${item.searchText}"
    data-categories="${item.categories.join(" ")}"
    ${visible ? "" : raw(" hidden")}
  >
    <h2><a href="${BASE}/${item.name}">${item.displayName}</a></h2>
    ${categoryList(item)}
    <p>${item.description}</p>
  </li>`;
}

export function listPage(
  assets: Assets,
  catalogue: Catalogue,
  query: { q: string; category: string },
  session?: WebSession,
): string {
  const words = searchWords(query.q);
  const shown = catalogue.items.map((item) => matches(item, words, query.category));
  const count = shown.filter(Boolean).length;
  const main = html`<h1>Integrations</h1>
    <p class="lead">
      Services that can post to your channels through an incoming webhook bot. Pick one to read how to set it up and to
      build its webhook URL.
    </p>
    <form class="filters" method="get" action="${BASE}/" role="search">
      <div class="field">
        <label for="q">Search</label>
        <input id="q" name="q" type="search" value="${query.q}" autocomplete="off" placeholder="e.g. github, alerts" />
      </div>
      <div class="field">
        <label for="category">Category</label>
        <select id="category" name="category">
          <option value="">All categories</option>
          ${catalogue.categories.map(
            (c) => html`<option value="${c}" ${c === query.category ? raw(" selected") : ""}>${c}</option>`,
          )}
        </select>
      </div>
      <button type="submit">Filter</button>
    </form>
    <p id="count" class="count" role="status" aria-live="polite">${count} of ${catalogue.items.length} integrations</p>
    <ul class="cards" id="cards" data-total="${catalogue.items.length}">
      ${catalogue.items.map((item, i) => card(item, shown[i]))}
    </ul>
    <p id="none" class="none" ${count === 0 ? "" : raw(" hidden")}>
      No integration matches. Try another word or category.
    </p>`;
  return layout(assets, "Integrations", main, "list", session);
}

function eventsSection(item: CatalogueItem): Html {
  return html`<section aria-labelledby="events-h">
    <h2 id="events-h">Events</h2>
    ${
      item.events.length
        ? html`<ul class="events">
            ${item.events.map((e) => html`<li><code>${e}</code></li>`)}
          </ul>`
        : html`<p>This integration has one kind of delivery; it needs no event filter.</p>`
    }
    ${
      item.ignoredEvents.length
        ? html`<p>
            Received but never posted: ${item.ignoredEvents.map((e, i) => html`${i ? ", " : ""}<code>${e}</code>`)}.
          </p>`
        : ""
    }
  </section>`;
}

function optionsSection(item: CatalogueItem): Html {
  if (!item.urlOptions.length) return html``;
  return html`<section aria-labelledby="options-h">
    <h2 id="options-h">URL options</h2>
    <div class="table-wrap">
      <table class="options">
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">What it does</th>
            <th scope="col">Default</th>
          </tr>
        </thead>
        <tbody>
          ${item.urlOptions.map(
            (o) =>
              html`<tr>
                <td><code>${o.key}</code></td>
                <td>${o.description}</td>
                <td>${o.default ?? "none"}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

function eventPicker(item: CatalogueItem): Html {
  if (item.events.length < 2) return html``;
  return html`<fieldset class="events-picker">
    <legend>Events</legend>
    <div class="radios">
      <label><input type="radio" name="event_mode" value="all" checked /> All events</label>
      <label><input type="radio" name="event_mode" value="only" /> Only the events ticked below</label>
      <label><input type="radio" name="event_mode" value="exclude" /> All except the events ticked below</label>
    </div>
    <div class="checks" id="event-checks">
      ${item.events.map(
        (e) => html`<label><input type="checkbox" name="event" value="${e}" disabled /> <code>${e}</code></label>`,
      )}
    </div>
  </fieldset>`;
}

/** What a signed-in visitor's URL builder offers: their own bots and channels. */
export interface OwnerChoices {
  bots: OwnedBot[];
  channels: string[];
}

const TOPIC_FIELD = html`<div class="field">
  <label for="topic">Topic</label>
  <input id="topic" name="topic" autocomplete="off" aria-describedby="topic-hint" />
  <p class="hint" id="topic-hint">Empty: the integration chooses topics (per repository, branch, ticket…).</p>
</div>`;

/** Signed out (or a script's user): the keys are pasted, the channels listed with the owner's key. */
function signedOutKeys(): Html {
  return html`<fieldset>
      <legend>Keys</legend>
      <div class="field">
        <label for="bot_key">Bot API key</label>
        <input id="bot_key" name="bot_key" autocomplete="off" spellcheck="false" aria-describedby="bot_key-hint" />
        <p class="hint" id="bot_key-hint">The key of the incoming webhook bot that will post the messages.</p>
      </div>
      <div class="field">
        <label for="owner_email">Your email (optional)</label>
        <input id="owner_email" name="owner_email" type="email" autocomplete="username" spellcheck="false" />
      </div>
      <div class="field">
        <label for="owner_key">Your API key (optional)</label>
        <input
          id="owner_key"
          name="owner_key"
          type="password"
          autocomplete="off"
          spellcheck="false"
          aria-describedby="owner_key-hint"
        />
        <p class="hint" id="owner_key-hint">
          A webhook bot's key cannot read channels: with your own email and key the page lists your channels, sends test
          deliveries and shows the bot's deliveries.
        </p>
      </div>
      <div class="actions">
        <button type="button" id="load_channels">List my channels</button>
        <button type="button" id="forget">Forget keys</button>
      </div>
    </fieldset>
    <div class="field">
      <label for="stream">Channel</label>
      <input id="stream" name="stream" autocomplete="off" aria-describedby="stream-hint" />
      <p class="hint" id="stream-hint">
        A channel name (type it, or pick one after "List my channels"). Empty: the messages come to you as direct
        messages.
      </p>
    </div>
    <div class="field" id="channel-pick-field" hidden>
      <label for="channel_pick">Your channels</label>
      <select id="channel_pick">
        <option value="">Pick a channel…</option>
      </select>
    </div>
    <p id="channels-status" role="status" aria-live="polite"></p>
    ${TOPIC_FIELD}`;
}

/** Signed in: the visitor's bots and channels come from the session; no key is pasted. */
function signedInChoices(owner: OwnerChoices): Html {
  const types: Record<number, string> = { 1: "generic", 2: "incoming webhook" };
  return html`<fieldset>
      <legend>Bot</legend>
      ${
        owner.bots.length
          ? html`<div class="field">
                <label for="bot_pick">Your bot</label>
                <select id="bot_pick" aria-describedby="bot_pick-hint">
                  ${owner.bots.map(
                    (b) =>
                      html`<option value="${b.id}" data-email="${b.email}">
                        ${b.fullName} (${types[b.botType] ?? "bot"})
                      </option>`,
                  )}
                </select>
                <p class="hint" id="bot_pick-hint">
                  The URL carries the bot's API key. Keys are stored hashed and shown once: the key of a bot created or
                  given a new key in this browser tab is filled in. For another bot, paste its key or get a new one
                  (URLs with its old key stop working).
                </p>
              </div>
              <div class="field">
                <label for="bot_key">Bot API key</label>
                <input id="bot_key" name="bot_key" autocomplete="off" spellcheck="false" />
              </div>
              <div class="actions">
                <button type="button" id="new_key" class="secondary">Get a new key for this bot</button>
                <span id="key-status" role="status" aria-live="polite"></span>
              </div>`
          : html`<p id="no-bots">
                You have no bots yet. <a href="/bots/">Create an incoming webhook bot</a>, then come back to this page.
              </p>
              <input id="bot_key" name="bot_key" type="hidden" />`
      }
    </fieldset>
    <div class="field">
      <label for="stream">Channel</label>
      <select id="stream" name="stream" aria-describedby="stream-hint">
        <option value="">No channel: direct messages to you</option>
        ${owner.channels.map((c, i) => html`<option value="${c}" ${i === 0 ? raw(" selected") : ""}>${c}</option>`)}
      </select>
      <p class="hint" id="stream-hint">
        One of your channels, or none: the messages then come to you as direct messages.
      </p>
    </div>
    ${TOPIC_FIELD}`;
}

function builder(item: CatalogueItem, catalogue: Catalogue, externalUrl: string, owner?: OwnerChoices): Html {
  const fixtures = catalogue.fixtureNames(item);
  const template = `${externalUrl}/api/v1/external/${item.name}?api_key=BOT_API_KEY&stream=CHANNEL`;
  return html`<section aria-labelledby="builder-h" class="builder">
    <h2 id="builder-h">Build the webhook URL</h2>
    <noscript
      ><p>The URL has this shape (the builder needs JavaScript):</p>
      <p><code class="url">${template}</code></p></noscript
    >
    <form
      id="builder"
      data-signed-in="${owner ? "true" : "false"}"
      data-integration="${item.name}"
      data-base="${externalUrl}/api/v1/external/${item.name}"
      hidden
    >
      ${
        owner
          ? ""
          : html`<p class="hint">
              Keys stay in this browser tab (session storage). The bot's key is only written into the URL; your own key
              is sent only to this server, to list your channels, send a test and show deliveries.
            </p>`
      }
      ${owner ? signedInChoices(owner) : signedOutKeys()} ${eventPicker(item)}
      ${
        item.urlOptions.length
          ? html`<fieldset>
              <legend>Options</legend>
              ${item.urlOptions.map(
                (o) =>
                  html`<div class="field">
                    <label for="opt-${o.key}">${o.key}</label>
                    <input
                      id="opt-${o.key}"
                      name="${o.key}"
                      data-option="${o.key}"
                      autocomplete="off"
                      placeholder="${o.default ?? ""}"
                      aria-describedby="opt-${o.key}-hint"
                    />
                    <p class="hint" id="opt-${o.key}-hint">${o.description}</p>
                  </div>`,
              )}
            </fieldset>`
          : ""
      }
      <div class="field">
        <label for="url">Webhook URL</label>
        <textarea id="url" readonly rows="3" spellcheck="false"></textarea>
      </div>
      <div class="actions">
        <button type="button" id="copy">Copy URL</button>
        <span id="copy-status" role="status" aria-live="polite"></span>
      </div>
      ${
        fixtures.length
          ? html`<fieldset class="test">
              <legend>Send a test delivery</legend>
              <div class="field">
                <label for="fixture">Sample payload</label>
                <select id="fixture">
                  ${fixtures.map((f) => html`<option value="${f}">${f}</option>`)}
                </select>
              </div>
              <div class="actions">
                <button type="button" id="send_test">Send a test delivery</button>
                ${owner ? html`<button type="button" id="post_test" class="secondary">Post it with this URL</button>` : ""}
              </div>
              <p class="hint">
                Runs the sample through this server's pipeline with the URL's topic, filters and options and shows what
                would be posted. Nothing is posted.
                ${
                  owner
                    ? html`<strong>Post it with this URL</strong> sends the sample to the webhook URL above, as the
                        service would: the bot posts it, and it appears in
                        <a href="${BASE}/deliveries">Recent deliveries</a>.`
                    : ""
                }
              </p>
              <div id="test-result" role="status" aria-live="polite"></div>
            </fieldset>`
          : ""
      }
    </form>
  </section>`;
}

export function integrationPage(
  assets: Assets,
  catalogue: Catalogue,
  item: CatalogueItem,
  externalUrl: string,
  signedIn?: { session: WebSession; owner: OwnerChoices },
): string {
  const main = html`<p class="crumbs"><a href="${BASE}/">All integrations</a></p>
    <h1>${item.displayName}</h1>
    ${categoryList(item)}
    <p class="lead">${item.description}</p>
    ${builder(item, catalogue, externalUrl, signedIn?.owner)} ${eventsSection(item)} ${optionsSection(item)}
    <section aria-labelledby="doc-h" class="doc">
      <h2 id="doc-h">Setting it up</h2>
      ${raw(catalogue.docHtml(item))}
    </section>`;
  return layout(assets, item.displayName, main, "integration", signedIn?.session);
}

export function deliveriesPage(assets: Assets, catalogue: Catalogue): string {
  const main = html`<h1>Recent deliveries</h1>
    <p class="lead">
      What your webhook bots received, and what came of it. Replay runs a stored delivery through the current
      integration again and posts the result.
    </p>
    <noscript><p>This view needs JavaScript: it reads the delivery log with your API key.</p></noscript>
    <form id="deliveries-form" hidden>
      <fieldset>
        <legend>Your account</legend>
        <div class="field">
          <label for="owner_email">Your email</label>
          <input id="owner_email" name="owner_email" type="email" autocomplete="username" spellcheck="false" required />
        </div>
        <div class="field">
          <label for="owner_key">Your API key</label>
          <input id="owner_key" name="owner_key" type="password" autocomplete="off" spellcheck="false" required />
        </div>
      </fieldset>
      <div class="field">
        <label for="bot">Bot</label>
        <select id="bot">
          <option value="">All my bots</option>
        </select>
      </div>
      <div class="field">
        <label for="integration">Integration</label>
        <select id="integration">
          <option value="">All integrations</option>
          ${catalogue.items.map((i) => html`<option value="${i.name}">${i.displayName}</option>`)}
        </select>
      </div>
      <div class="actions"><button type="submit" id="load_deliveries">Show deliveries</button></div>
    </form>
    <p id="deliveries-status" role="status" aria-live="polite"></p>
    <div class="table-wrap">
      <table id="deliveries" hidden>
        <caption class="visually-hidden">
          Deliveries, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Integration</th>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
            <th scope="col"><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody></tbody>
      </table>
    </div>`;
  return layout(assets, "Recent deliveries", main, "deliveries");
}

export interface DeliveriesFilter {
  botId?: number;
  integration: string;
}

function deliveryDetails(d: DeliveryView): string {
  if (d.outcome === "message") return `${counted(d.message_ids.length, "message")} posted`;
  if (d.outcome === "error") return `${d.status} ${d.code ?? ""}: ${d.error ?? ""}`;
  return d.ignored_reason ?? "";
}

/** A posted message as a chat client shows it: where it went, then the rendered content. */
function postedMessage(m: PostedMessage): Html {
  if (!m.readable)
    return html`<div class="message posted hidden-message">
      <p class="where">Message ${m.id}: in a channel you cannot read.</p>
    </div>`;
  return html`<div class="message posted" data-message-id="${m.id}">
    <p class="where">
      ${
        m.channel === null
          ? html`<span class="channel">Direct message</span>`
          : html`<span class="channel">#${m.channel}</span> <span aria-hidden="true">›</span>
              <span class="topic">${m.topic}</span>`
      }
    </p>
    <div class="rendered">${raw(withEmojiGlyphs(m.renderedHtml))}</div>
  </div>`;
}

function deliveryItem(ctx: { csrfToken: string }, d: DeliveryView): Html {
  const time = new Date(d.time * 1000).toISOString();
  return html`<li class="delivery" data-id="${d.id}">
    <div class="delivery-head">
      <time datetime="${time}">${time.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time>
      <span class="bot">${d.botName}</span>
      <span>${d.integration}</span>
      <code>${d.event ?? "unknown event"}</code>
      <span class="outcome outcome-${d.outcome}">${d.outcome}</span>
    </div>
    <p class="details">${deliveryDetails(d)}${d.replay_of ? ` (replay of ${d.replay_of})` : ""}</p>
    ${d.messages.map(postedMessage)}
    <form method="post" action="${BASE}/deliveries/${d.id}/replay" class="replay">
      <input type="hidden" name="csrf_token" value="${ctx.csrfToken}" />
      <button type="submit" class="secondary" aria-label="Replay delivery ${d.id}">Replay</button>
    </form>
  </li>`;
}

/** Recent deliveries for a signed-in visitor: rendered on the server at once, no key needed. */
export function signedInDeliveriesPage(
  assets: Assets,
  catalogue: Catalogue,
  session: WebSession,
  view: {
    bots: OwnedBot[];
    filter: DeliveriesFilter;
    deliveries: DeliveryView[];
    seesAllBots: boolean;
    notice?: string;
    error?: string;
  },
): string {
  const { filter } = view;
  const main = html`<h1>Recent deliveries</h1>
    <p class="lead">
      What ${view.seesAllBots ? "the organization's" : "your"} webhook bots received, newest first, with the messages
      they posted and where. Replay runs a stored delivery through the current integration again and posts the result.
    </p>
    ${view.notice ? html`<p class="notice" id="deliveries-notice" role="status">${view.notice}</p>` : ""}
    ${view.error ? html`<p class="error" id="deliveries-error" role="alert">${view.error}</p>` : ""}
    <form class="filters" method="get" action="${BASE}/deliveries">
      <div class="field">
        <label for="bot">Bot</label>
        <select id="bot" name="bot_id">
          <option value="">${view.seesAllBots ? "All bots" : "All my bots"}</option>
          ${view.bots.map(
            (b) =>
              html`<option value="${b.id}" ${b.id === filter.botId ? raw(" selected") : ""}>${b.fullName}</option>`,
          )}
        </select>
      </div>
      <div class="field">
        <label for="integration">Integration</label>
        <select id="integration" name="integration">
          <option value="">All integrations</option>
          ${catalogue.items.map(
            (i) =>
              html`<option value="${i.name}" ${i.name === filter.integration ? raw(" selected") : ""}>
                ${i.displayName}
              </option>`,
          )}
        </select>
      </div>
      <button type="submit" id="load_deliveries">Show deliveries</button>
    </form>
    <p id="deliveries-status" class="count">
      ${view.deliveries.length ? `${counted(view.deliveries.length, "delivery", "deliveries")}, newest first.` : "No deliveries yet."}
    </p>
    ${
      view.deliveries.length
        ? html`<ol class="deliveries" id="delivery-list">
            ${view.deliveries.map((d) => deliveryItem(session, d))}
          </ol>`
        : html`<p>
            Paste a webhook URL built on an <a href="${BASE}/">integration's page</a> into the service's settings, or
            post a sample from there: its deliveries show up here.
          </p>`
    }`;
  return layout(assets, "Recent deliveries", main, "deliveries-session", session);
}

export function notFoundPage(assets: Assets, name: string, session?: WebSession): string {
  const main = html`<h1>No such integration</h1>
    <p>There is no integration called <code>${name}</code>. <a href="${BASE}/">See all integrations</a>.</p>`;
  return layout(assets, "Not found", main, "notfound", session);
}
