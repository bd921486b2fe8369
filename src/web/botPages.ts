// /bots/: a signed-in member's own bots, server-rendered in the catalogue's style. Create an
// incoming-webhook or generic bot, give one a new key, deactivate one, download a zuliprc. Every
// change is a form post carrying the session's CSRF token and goes through the same services as the
// REST API's /bots (services/users/bots.ts), so the same rules and events apply. Keys are stored
// hashed: a key is shown once, on the page that answers its creation or regeneration.
import { Router } from "@koa/router";
import type { Context } from "koa";
import type { AppDeps } from "../deps";
import { ApiError } from "../errors";
import { limitByIp } from "../http/auth";
import { MAX_BOT_SHORT_NAME_LENGTH, MAX_FULL_NAME_LENGTH } from "../limits";
import { addBot, creatableBotTypes, deactivateBot, listOwnBots, regenerateBotApiKey } from "../services/users/bots";
import { isGuest } from "../services/users/users";
import { botZuliprc, BOT_TYPE } from "../services/webhooks/ownerView";
import { catalogueAssets, formText, pageFormParser, sendPrivatePage } from "./pageResponse";
import { html, raw, type Html } from "./html";
import { BASE, layout, type Assets } from "./pages";
import { checkCsrf, CSRF_FIELD, loadSession, loginUrl, requireSignedIn, type WebSession } from "./session";

const TYPE_NAMES: Record<number, string> = {
  [BOT_TYPE.generic]: "Generic",
  [BOT_TYPE.incomingWebhook]: "Incoming webhook",
};

interface ListedBot {
  user_id: number;
  username: string;
  full_name: string;
  bot_type: number;
  default_sending_stream: string | null;
}

/** A key just created or regenerated: the only time it is shown. */
interface ShownKey {
  botId: number;
  botName: string;
  email: string;
  apiKey: string;
  created: boolean;
}

interface BotsView {
  bots: ListedBot[];
  creatable: number[];
  guest: boolean;
  form?: { fullName: string; shortName: string; botType: number };
  shownKey?: ShownKey;
  notice?: string;
  error?: string;
}

const csrf = (session: WebSession) => html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}" />`;

function keyPanel(session: WebSession, shown: ShownKey): Html {
  return html`<section class="key-panel" id="new-key" aria-labelledby="new-key-h" data-bot-id="${shown.botId}">
    <h2 id="new-key-h">${shown.created ? "Bot created: " : "New key for "}${shown.botName}</h2>
    <p>
      <strong>Copy this API key now: it is shown only this once.</strong> The server keeps only a hash of it and cannot
      show it again. If you lose it, give the bot a new key (its old URLs then stop working).
    </p>
    <div class="field">
      <label for="new-key-value">API key of ${shown.email}</label>
      <input id="new-key-value" readonly spellcheck="false" value="${shown.apiKey}" />
    </div>
    <div class="actions">
      <button type="button" id="copy-key" data-copy="new-key-value">Copy key</button>
      <form method="post" action="/bots/${shown.botId}/zuliprc">
        ${csrf(session)}
        <input type="hidden" name="api_key" value="${shown.apiKey}" />
        <button type="submit" id="download-zuliprc" class="secondary">Download zuliprc</button>
      </form>
      <span id="copy-key-status" role="status" aria-live="polite"></span>
    </div>
    <p class="hint">
      Next: pick an integration on the <a href="${BASE}/" id="build-url-link">integrations page</a> and build the
      webhook URL; in this browser tab the key is filled in for you. Deliveries show up in
      <a href="${BASE}/deliveries">Recent deliveries</a>.
    </p>
  </section>`;
}

function botRow(session: WebSession, bot: ListedBot): Html {
  return html`<tr data-bot-id="${bot.user_id}">
    <td><strong class="bot-name">${bot.full_name}</strong><br /><code>${bot.username}</code></td>
    <td>${TYPE_NAMES[bot.bot_type] ?? `Type ${bot.bot_type}`}</td>
    <td>
      <a href="${BASE}/deliveries?bot_id=${bot.user_id}">Deliveries</a>
    </td>
    <td>
      <div class="actions row-actions">
        <form method="post" action="/bots/${bot.user_id}/regenerate">
          ${csrf(session)}
          <button type="submit" class="secondary" aria-label="New API key for ${bot.full_name}">New API key</button>
        </form>
        <form method="post" action="/bots/${bot.user_id}/deactivate">
          ${csrf(session)}
          <button type="submit" class="secondary danger" aria-label="Deactivate ${bot.full_name}">Deactivate</button>
        </form>
      </div>
    </td>
  </tr>`;
}

function createForm(session: WebSession, view: BotsView): Html {
  if (view.guest) return html`<p id="cannot-create">Guests cannot have bots in this organization.</p>`;
  if (view.creatable.length === 0)
    return html`<p id="cannot-create">
      This organization's settings do not let you create bots. Ask an administrator.
    </p>`;
  // An incoming webhook bot by default: what a webhook URL needs.
  const preferred = view.creatable.includes(BOT_TYPE.incomingWebhook) ? BOT_TYPE.incomingWebhook : view.creatable[0];
  const form = view.form ?? { fullName: "", shortName: "", botType: preferred };
  const choices = [BOT_TYPE.incomingWebhook, BOT_TYPE.generic].filter((t) => view.creatable.includes(t));
  return html`<form class="account-form" method="post" action="/bots/" id="create-bot">
    ${csrf(session)}
    <fieldset>
      <legend>Create a bot</legend>
      <div class="field">
        <label for="bot_type">Kind</label>
        <select id="bot_type" name="bot_type" aria-describedby="bot_type-hint">
          ${choices.map(
            (t) => html`<option value="${t}" ${t === form.botType ? raw(" selected") : ""}>${TYPE_NAMES[t]}</option>`,
          )}
        </select>
        <p class="hint" id="bot_type-hint">
          An incoming webhook bot can only post messages: the key to put in a webhook URL. A generic bot can use the
          whole API.
        </p>
      </div>
      <div class="field">
        <label for="full_name">Name</label>
        <input
          id="full_name"
          name="full_name"
          value="${form.fullName}"
          maxlength="${MAX_FULL_NAME_LENGTH}"
          required
          autocomplete="off"
        />
      </div>
      <div class="field">
        <label for="short_name">Short name</label>
        <input
          id="short_name"
          name="short_name"
          value="${form.shortName}"
          maxlength="${MAX_BOT_SHORT_NAME_LENGTH}"
          required
          autocomplete="off"
          spellcheck="false"
          aria-describedby="short_name-hint"
        />
        <p class="hint" id="short_name-hint">
          Letters, digits, <code>.</code> <code>_</code> <code>+</code> <code>-</code>; the bot's address is
          <code>&lt;short name&gt;-bot@…</code>.
        </p>
      </div>
      <div class="actions"><button type="submit" id="create">Create bot</button></div>
    </fieldset>
  </form>`;
}

function botsPage(assets: Assets, session: WebSession, view: BotsView): string {
  const main = html`<h1>Your bots</h1>
    <p class="lead">
      Bots post for you: an incoming webhook bot's key goes into the webhook URL that a service calls. Keys are stored
      hashed, so a key is shown once, when the bot is created or given a new key.
    </p>
    ${view.notice ? html`<p class="notice" id="bots-notice" role="status">${view.notice}</p>` : ""}
    ${view.error ? html`<p class="error" id="bots-error" role="alert">${view.error}</p>` : ""}
    ${view.shownKey ? keyPanel(session, view.shownKey) : ""}
    ${
      view.bots.length
        ? html`<div class="table-wrap">
            <table id="bots">
              <caption class="visually-hidden">
                Your active bots
              </caption>
              <thead>
                <tr>
                  <th scope="col">Bot</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Log</th>
                  <th scope="col"><span class="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                ${view.bots.map((b) => botRow(session, b))}
              </tbody>
            </table>
          </div>`
        : html`<p id="no-bots">You have no active bots yet.</p>`
    }
    ${createForm(session, view)}`;
  return layout(assets, "Your bots", main, "bots", session);
}

export function botPagesRouter(deps: AppDeps): Router {
  const router = new Router({ strict: true });
  const assets = catalogueAssets();
  const ip = limitByIp(deps);
  const signedIn = requireSignedIn(deps);
  // Posts are guarded by postGuard (a signed-out post goes to /login/), so they only load the session.
  const session = loadSession(deps);
  const parseBody = pageFormParser(deps.config);
  const sessionOf = (ctx: Context) => ctx.state.webSession as WebSession;
  const params = (ctx: Context) => (ctx.state.rawParams ?? {}) as Record<string, unknown>;

  async function render(ctx: Context, extra: Partial<BotsView> = {}, status = 200): Promise<void> {
    const session = sessionOf(ctx);
    const guest = isGuest(session.user);
    const view: BotsView = {
      bots: guest ? [] : ((await listOwnBots(deps.db, session)) as unknown as ListedBot[]),
      creatable: await creatableBotTypes(deps.db, session.realm, session.user),
      guest,
      ...extra,
    };
    sendPrivatePage(ctx, botsPage(assets, session, view), status);
  }

  /** A form post: signed in (else to /login/), with the session's CSRF token (else refused, nothing done). */
  const postGuard = async (ctx: Context, next: () => Promise<void>) => {
    if (!ctx.state.webSession) {
      ctx.status = 303;
      return ctx.redirect(loginUrl("/bots/"));
    }
    try {
      checkCsrf(sessionOf(ctx), formText(params(ctx)[CSRF_FIELD]) || undefined);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return render(ctx, { error: `${err.message}. Nothing was changed: reload the page and try again.` }, 403);
    }
    await next();
  };
  /** Runs a change; a refused one shows the page again with the reason, nothing written. */
  async function attempt(ctx: Context, change: () => Promise<void>, form?: BotsView["form"]): Promise<void> {
    try {
      await change();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err;
      await render(ctx, { error: err.message, form }, err.status);
    }
  }
  const botId = (ctx: Context) => (/^[1-9]\d{0,15}$/.test(ctx.params.id) ? Number(ctx.params.id) : 0);
  router.get("/bots", ip, (ctx) => {
    ctx.status = 301;
    ctx.redirect("/bots/");
  });

  router.get("/bots/", ip, signedIn, async (ctx) => render(ctx));

  router.post("/bots/", ip, session, parseBody, postGuard, async (ctx) => {
    const raw = params(ctx);
    const form = {
      fullName: formText(raw.full_name),
      shortName: formText(raw.short_name),
      botType: Number(formText(raw.bot_type) || BOT_TYPE.incomingWebhook),
    };
    await attempt(
      ctx,
      async () => {
        const created = await addBot(deps.db, sessionOf(ctx), deps.config.externalUrl, {
          fullName: form.fullName,
          shortName: form.shortName,
          botType: Number.isInteger(form.botType) ? form.botType : -1,
        });
        await deps.bus.publish(created.notifications);
        const shownKey = {
          botId: created.bot.id,
          botName: created.bot.full_name,
          email: created.bot.email,
          apiKey: created.apiKey,
          created: true,
        };
        await render(ctx, { shownKey });
      },
      form,
    );
  });

  router.post("/bots/:id/regenerate", ip, session, parseBody, postGuard, async (ctx) => {
    await attempt(ctx, async () => {
      const session = sessionOf(ctx);
      const apiKey = await regenerateBotApiKey(deps.db, session, botId(ctx));
      const bot = ((await listOwnBots(deps.db, session)) as unknown as ListedBot[]).find(
        (b) => b.user_id === botId(ctx),
      );
      const shownKey = {
        botId: botId(ctx),
        botName: bot?.full_name ?? `Bot ${botId(ctx)}`,
        email: bot?.username ?? "",
        apiKey,
        created: false,
      };
      await render(ctx, { shownKey, notice: "The old key no longer works." });
    });
  });

  router.post("/bots/:id/deactivate", ip, session, parseBody, postGuard, async (ctx) => {
    await attempt(ctx, async () => {
      await deps.bus.publish(await deactivateBot(deps.db, sessionOf(ctx), botId(ctx)));
      await render(ctx, { notice: "The bot is deactivated: its key no longer works." });
    });
  });

  router.post("/bots/:id/zuliprc", ip, session, parseBody, postGuard, async (ctx) => {
    await attempt(ctx, async () => {
      const file = await botZuliprc(
        deps.db,
        sessionOf(ctx),
        botId(ctx),
        formText(params(ctx).api_key),
        deps.config.externalUrl,
      );
      ctx.set("Cache-Control", "no-store");
      ctx.set("X-Content-Type-Options", "nosniff");
      ctx.set("Content-Disposition", `attachment; filename="${file.filename}"`);
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = file.text;
    });
  });

  return router;
}
