// Switchboard integrations catalogue: instant filtering, the URL builder, test deliveries and the
// deliveries view. Plain JavaScript, no build step. Keys live only in sessionStorage (this tab) and
// are sent only to this server, as the Basic-auth credential of the API calls below.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const page = document.body.dataset.page;

  // ---- Session keys --------------------------------------------------------------------------
  const STORE = { bot_key: "sb.bot_key", owner_email: "sb.owner_email", owner_key: "sb.owner_key" };

  function keepInSession(id) {
    const input = $(id);
    if (!input) return;
    input.value = sessionStorage.getItem(STORE[id]) || input.value;
    input.addEventListener("input", () => sessionStorage.setItem(STORE[id], input.value.trim()));
  }

  function basicAuth(email, key) {
    const bytes = new TextEncoder().encode(`${email}:${key}`);
    let binary = "";
    bytes.forEach((b) => (binary += String.fromCharCode(b)));
    return `Basic ${btoa(binary)}`;
  }

  function ownerCredentials() {
    const email = ($("owner_email") || {}).value || "";
    const key = ($("owner_key") || {}).value || "";
    return email.trim() && key.trim() ? { email: email.trim(), key: key.trim() } : null;
  }

  // A signed-in page carries the session's CSRF token: its API calls go with the session cookie.
  const csrfMeta = document.querySelector("meta[name=csrf-token]");
  const csrfToken = csrfMeta ? csrfMeta.getAttribute("content") : "";

  /** Calls this server's API as the owner; resolves to the JSON body, rejects with a readable message. */
  async function api(method, path, params) {
    const creds = ownerCredentials();
    if (!creds && !csrfToken) throw new Error("Enter your email and API key first.");
    // credentials "omit": the key goes only in our Authorization header, and a 401 comes back to this
    // script. Signed in: the session cookie, and the CSRF token on changes.
    const init = creds
      ? { method, credentials: "omit", headers: { Authorization: basicAuth(creds.email, creds.key) } }
      : { method, credentials: "same-origin", headers: method === "GET" ? {} : { "X-CSRFToken": csrfToken } };
    let url = `/api/v1${path}`;
    if (params && method === "GET") url += `?${new URLSearchParams(params)}`;
    else if (params) {
      init.headers["Content-Type"] = "application/x-www-form-urlencoded";
      init.body = new URLSearchParams(params).toString();
    }
    let response;
    try {
      response = await fetch(url, init);
    } catch {
      throw new Error("The server could not be reached.");
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok || body.result !== "success") {
      if (response.status === 404 && !body.code) throw new Error("This server does not offer that API.");
      throw new Error(`${body.msg || `HTTP ${response.status}`}${body.code ? ` (${body.code})` : ""}`);
    }
    return body;
  }

  function say(id, text, isError) {
    const el = $(id);
    el.textContent = text;
    el.classList.toggle("error", Boolean(isError));
  }

  /** "1 delivery", "2 deliveries". */
  function counted(n, singular, plural) {
    return `${n} ${n === 1 ? singular : plural || `${singular}s`}`;
  }

  /** Unicode emoji spans hold `:name:` for a client's sprite sheet; this page shows the character. */
  function showEmojiGlyphs(container) {
    for (const span of container.querySelectorAll("span.emoji[role=img]")) {
      const code = /(?:^| )emoji-([0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,9})(?: |$)/.exec(span.className);
      if (!code) continue;
      const points = code[1].split("-").map((hex) => parseInt(hex, 16));
      if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) continue;
      span.textContent = String.fromCodePoint(...points); // text, never markup
    }
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  // ---- The list: instant search and category filter ---------------------------------------------
  function initList() {
    const form = document.querySelector("form.filters");
    const q = $("q");
    const category = $("category");
    const cards = [...document.querySelectorAll("#cards .card")];
    const total = cards.length;
    function apply() {
      const words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
      const cat = category.value;
      let shown = 0;
      for (const card of cards) {
        const ok =
          (!cat || card.dataset.categories.split(" ").includes(cat)) &&
          words.every((w) => card.dataset.search.includes(w));
        card.hidden = !ok;
        if (ok) shown++;
      }
      $("count").textContent = `${shown} of ${total} integrations`;
      $("none").hidden = shown !== 0;
      const params = new URLSearchParams();
      if (q.value) params.set("q", q.value);
      if (cat) params.set("category", cat);
      history.replaceState(null, "", params.size ? `?${params}` : location.pathname);
    }
    q.addEventListener("input", apply);
    category.addEventListener("change", apply);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      apply();
    });
  }

  // ---- One integration: the URL builder ---------------------------------------------------------
  // Values as written in the URL: percent-encoded, but commas (list separators) left readable.
  const encode = (v) => encodeURIComponent(v).replace(/%2C/gi, ",");

  function builderQuery(form) {
    const query = [];
    const topic = $("topic").value.trim();
    if (topic) query.push(["topic", topic]);
    const mode = (form.querySelector("input[name=event_mode]:checked") || {}).value;
    const events = [...form.querySelectorAll("input[name=event]:checked")].map((c) => c.value);
    if (mode === "only" && events.length) query.push(["only_events", events.join(",")]);
    if (mode === "exclude" && events.length) query.push(["exclude_events", events.join(",")]);
    for (const input of form.querySelectorAll("[data-option]")) {
      if (input.value.trim()) query.push([input.dataset.option, input.value.trim()]);
    }
    return query;
  }

  function buildUrl(form) {
    const key = $("bot_key").value.trim() || "BOT_API_KEY";
    const stream = $("stream").value.trim().replace(/^#/, "");
    const parts = [["api_key", key]];
    if (stream) parts.push(["stream", stream]);
    parts.push(...builderQuery(form));
    return `${form.dataset.base}?${parts.map(([k, v]) => `${k}=${encode(v)}`).join("&")}`;
  }

  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      const area = $("url");
      area.focus();
      area.select();
      return document.execCommand && document.execCommand("copy");
    }
  }

  // Keys shown once on the bots page are kept in this tab, per bot, for the URL builder.
  const botKeyName = (id) => `sb.botkey.${id}`;

  function initSignedInBot(update) {
    const pick = $("bot_pick");
    if (!pick) return;
    const fill = () => {
      $("bot_key").value = sessionStorage.getItem(botKeyName(pick.value)) || "";
      say("key-status", $("bot_key").value ? "" : "This tab does not know this bot's key: paste it or get a new one.");
      update();
    };
    const wanted = new URLSearchParams(location.search).get("bot");
    const options = [...pick.options];
    // The bot asked for (?bot=), else the first one whose key this tab knows (just created or renewed).
    if (wanted && options.some((o) => o.value === wanted)) pick.value = wanted;
    else {
      const known = options.find((o) => sessionStorage.getItem(botKeyName(o.value)));
      if (known) pick.value = known.value;
    }
    pick.addEventListener("change", fill);
    $("bot_key").addEventListener("input", () =>
      sessionStorage.setItem(botKeyName(pick.value), $("bot_key").value.trim()),
    );
    let armed = false;
    $("new_key").addEventListener("click", async () => {
      // Two clicks: replacing a key breaks every URL that carries the old one.
      if (!armed) {
        armed = true;
        say("key-status", "Click again to replace the key: URLs with the old key stop working.");
        return;
      }
      armed = false;
      try {
        const { api_key } = await api("POST", `/bots/${pick.value}/api_key/regenerate`);
        sessionStorage.setItem(botKeyName(pick.value), api_key);
        $("bot_key").value = api_key;
        update();
        say("key-status", "New key filled in. Copy the URL now: this page cannot show the key again after you leave.");
      } catch (err) {
        say("key-status", `No new key: ${err.message}`, true);
      }
    });
    fill();
  }

  function initBuilder() {
    const form = $("builder");
    form.hidden = false;
    const signedIn = form.dataset.signedIn === "true";
    if (!signedIn) Object.keys(STORE).forEach(keepInSession);
    const update = () => {
      $("url").value = buildUrl(form);
    };
    function syncEventChecks() {
      const mode = (form.querySelector("input[name=event_mode]:checked") || {}).value;
      for (const c of form.querySelectorAll("input[name=event]")) c.disabled = mode === "all";
    }
    form.addEventListener("input", update);
    form.addEventListener("change", () => {
      syncEventChecks();
      update();
    });
    form.addEventListener("submit", (e) => e.preventDefault());
    syncEventChecks();
    update();

    $("copy").addEventListener("click", async () => {
      const done = await copyText($("url").value);
      say("copy-status", done ? "Copied." : "Select the URL and copy it.", !done);
    });

    if (signedIn) {
      initSignedInBot(update);
      if ($("send_test")) $("send_test").addEventListener("click", () => sendTest(form));
      if ($("post_test")) $("post_test").addEventListener("click", () => postTest(form));
      return;
    }

    $("forget").addEventListener("click", () => {
      for (const [id, name] of Object.entries(STORE)) {
        sessionStorage.removeItem(name);
        $(id).value = "";
      }
      update();
      say("copy-status", "Keys forgotten.");
    });

    $("load_channels").addEventListener("click", async () => {
      try {
        const body = await api("GET", "/users/me/subscriptions", { include_subscribers: "false" });
        const pick = $("channel_pick");
        pick.replaceChildren(el("option", { value: "", text: "Pick a channel…" }));
        const names = body.subscriptions.map((s) => s.name).sort((a, b) => a.localeCompare(b));
        for (const name of names) pick.append(el("option", { value: name, text: name }));
        $("channel-pick-field").hidden = false;
        say("channels-status", `${names.length} channel${names.length === 1 ? "" : "s"} listed under "Your channels".`);
      } catch (err) {
        say("channels-status", `Could not list your channels: ${err.message}`, true);
      }
    });
    $("channel_pick").addEventListener("change", (e) => {
      if (!e.target.value) return;
      $("stream").value = e.target.value;
      update();
    });

    if ($("send_test")) $("send_test").addEventListener("click", () => sendTest(form));
  }

  function showMessages(target, result) {
    target.replaceChildren();
    if (result.outcome === "message") {
      target.append(
        el("p", {
          class: "outcome outcome-message",
          text: `Would post ${counted(result.messages.length, "message")}:`,
        }),
      );
      for (const m of result.messages) {
        const body = el("div", { class: "rendered" });
        // rendered_content is this server's Markdown renderer output (raw HTML escaped), as in messages.
        body.innerHTML = m.rendered_content;
        showEmojiGlyphs(body);
        const where = m.direct ? "Direct message to the bot's owner" : `Topic: ${m.topic}`;
        target.append(el("div", { class: "message" }, [el("p", { class: "topic", text: where }), body]));
      }
    } else if (result.outcome === "ignored") {
      target.append(el("p", { class: "outcome outcome-ignored", text: `Nothing would be posted (${result.reason}).` }));
    } else {
      const error = result.error || {};
      target.append(el("p", { class: "outcome outcome-error", text: `Refused: ${error.msg} (${error.code})` }));
    }
  }

  async function sendTest(form) {
    const target = $("test-result");
    const button = $("send_test");
    button.disabled = true;
    target.replaceChildren(el("p", { text: "Sending…" }));
    try {
      const name = encodeURIComponent($("fixture").value);
      const response = await fetch(`${location.pathname.replace(/\/$/, "")}/fixtures/${name}`);
      if (!response.ok) throw new Error("The sample payload could not be loaded.");
      const { fixture } = await response.json();
      const query = Object.assign({}, fixture.query, Object.fromEntries(builderQuery(form)));
      const result = await api("POST", "/webhooks/preview", {
        integration: form.dataset.integration,
        headers: JSON.stringify(fixture.headers),
        query: JSON.stringify(query),
        body: fixture.body,
        body_encoding: fixture.body_encoding,
      });
      showMessages(target, result);
    } catch (err) {
      target.replaceChildren(el("p", { class: "error", text: `Test not sent: ${err.message}` }));
    } finally {
      button.disabled = false;
    }
  }

  async function loadFixture() {
    const name = encodeURIComponent($("fixture").value);
    const response = await fetch(`${location.pathname.replace(/\/$/, "")}/fixtures/${name}`);
    if (!response.ok) throw new Error("The sample payload could not be loaded.");
    return (await response.json()).fixture;
  }

  /** Signed in: posts the sample to the webhook URL itself, as the service would (the bot's key, no cookie). */
  async function postTest(form) {
    const target = $("test-result");
    const button = $("post_test");
    if (!$("bot_key").value.trim()) {
      target.replaceChildren(el("p", { class: "error", text: "The URL has no bot key yet: pick a bot with a key." }));
      return;
    }
    button.disabled = true;
    target.replaceChildren(el("p", { text: "Posting…" }));
    try {
      const fixture = await loadFixture();
      const built = new window.URL($("url").value);
      const query = new URLSearchParams(fixture.query);
      for (const [k, v] of built.searchParams) query.set(k, v);
      const body =
        fixture.body_encoding === "base64"
          ? Uint8Array.from(window.atob(fixture.body), (c) => c.charCodeAt(0))
          : fixture.body;
      const response = await fetch(`/api/v1/external/${form.dataset.integration}?${query}`, {
        method: "POST",
        credentials: "omit",
        headers: fixture.headers,
        body,
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok || answer.result !== "success")
        throw new Error(`${answer.msg || `HTTP ${response.status}`}${answer.code ? ` (${answer.code})` : ""}`);
      target.replaceChildren(
        el("p", { class: "outcome outcome-message", text: "Posted. " }, [
          el("a", { href: "/integrations/deliveries", text: "See it in Recent deliveries" }),
        ]),
      );
    } catch (err) {
      target.replaceChildren(el("p", { class: "error", text: `Not posted: ${err.message}` }));
    } finally {
      button.disabled = false;
    }
  }

  // ---- Your bots: the key shown once -------------------------------------------------------------
  function initBots() {
    const panel = $("new-key");
    if (!panel) return;
    sessionStorage.setItem(botKeyName(panel.dataset.botId), $("new-key-value").value);
    const link = $("build-url-link");
    if (link) link.href = `/integrations/?bot=${encodeURIComponent(panel.dataset.botId)}`;
    $("copy-key").addEventListener("click", async () => {
      let done = false;
      try {
        await navigator.clipboard.writeText($("new-key-value").value);
        done = true;
      } catch {
        $("new-key-value").select();
      }
      say("copy-key-status", done ? "Copied." : "Select the key and copy it.", !done);
    });
  }

  // ---- Deliveries view -------------------------------------------------------------------------
  function deliveryDetails(d) {
    if (d.outcome === "message") return `${counted(d.message_ids.length, "message")} posted`;
    if (d.outcome === "error") return `${d.status} ${d.code || ""}: ${d.error || ""}`;
    return d.ignored_reason || "";
  }

  function deliveryRow(d, onReplay) {
    const time = new Date(d.time * 1000);
    const replay = el("button", { type: "button", class: "secondary", text: "Replay" });
    replay.setAttribute("aria-label", `Replay delivery ${d.id}`);
    replay.addEventListener("click", () => onReplay(d, replay));
    const event = d.event || "unknown event";
    return el("tr", { "data-id": String(d.id) }, [
      el("td", {}, [el("time", { datetime: time.toISOString(), text: time.toLocaleString() })]),
      el("td", { text: d.integration }),
      el("td", {}, [el("code", { text: event })]),
      el("td", {}, [el("span", { class: `outcome outcome-${d.outcome}`, text: d.outcome })]),
      el("td", { text: deliveryDetails(d) + (d.replay_of ? ` (replay of ${d.replay_of})` : "") }),
      el("td", {}, [replay]),
    ]);
  }

  function initDeliveries() {
    const form = $("deliveries-form");
    form.hidden = false;
    keepInSession("owner_email");
    keepInSession("owner_key");
    const wanted = new URLSearchParams(location.search).get("integration");
    if (wanted) $("integration").value = wanted;
    const table = $("deliveries");
    const rows = table.querySelector("tbody");
    let botsLoaded = false;

    async function loadBots() {
      const me = await api("GET", "/users/me");
      const { members } = await api("GET", "/users");
      const mine = members.filter((m) => m.is_bot && m.bot_owner_id === me.user_id);
      for (const bot of mine) $("bot").append(el("option", { value: String(bot.user_id), text: bot.full_name }));
      botsLoaded = true;
    }

    async function onReplay(delivery, button) {
      button.disabled = true;
      try {
        const { delivery: replayed } = await api("POST", `/webhooks/deliveries/${delivery.id}/replay`);
        rows.prepend(deliveryRow(replayed, onReplay));
        say("deliveries-status", `Replayed delivery ${delivery.id}: ${replayed.outcome}. ${deliveryDetails(replayed)}`);
      } catch (err) {
        say("deliveries-status", `Replay failed: ${err.message}`, true);
      } finally {
        button.disabled = false;
      }
    }

    async function load() {
      say("deliveries-status", "Loading…");
      try {
        if (!botsLoaded) await loadBots();
        const params = { limit: "50" };
        if ($("bot").value) params.bot_id = $("bot").value;
        if ($("integration").value) params.integration = $("integration").value;
        const { deliveries } = await api("GET", "/webhooks/deliveries", params);
        rows.replaceChildren(...deliveries.map((d) => deliveryRow(d, onReplay)));
        table.hidden = deliveries.length === 0;
        say(
          "deliveries-status",
          deliveries.length
            ? `${counted(deliveries.length, "delivery", "deliveries")}, newest first.`
            : "No deliveries yet.",
        );
      } catch (err) {
        table.hidden = true;
        say("deliveries-status", `Could not load deliveries: ${err.message}`, true);
      }
    }

    form.addEventListener("submit", (e) => {
      e.preventDefault();
      load();
    });
    if (ownerCredentials()) load();
  }

  if (page === "list") initList();
  if (page === "integration") initBuilder();
  if (page === "deliveries") initDeliveries();
  if (page === "bots") initBots();
})();
