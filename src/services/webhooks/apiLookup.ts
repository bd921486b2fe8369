// A plugin's API lookups (manifest `api`): details a payload names only by id (a ClickUp task, a
// Notion page), fetched from the service with the token the bot owner put in the URL. Outbound
// only to the manifest's one host, over https, GET only, redirects not followed, all lookups of a
// delivery within one time limit, each answer read up to a size cap. A lookup that fails in any
// way is simply absent (so is an answer that is not a JSON object, or whose `okField` is not true):
// the message then says what the payload alone says. The token is never logged and never part of
// an error (this function does not throw).
import type { Integration } from "../../webhooks/registry";
import { parseWebhookBody } from "../../webhooks/body";
import { readPath } from "../../webhooks/paths";
import { collectAnswers, planLookups } from "../../webhooks/apiLookupIds";
import { API_LOOKUP_MAX_PATH_CHARS, API_LOOKUP_MAX_RESPONSE_BYTES, API_LOOKUP_TIMEOUT_MS } from "../../limits";

export interface ApiLookupRequest {
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
  body: Buffer;
}

/** The lookups' answers by name, or undefined when the plugin has none or no token was given. */
export async function lookupApiDetails(
  integration: Integration,
  request: ApiLookupRequest,
): Promise<Record<string, unknown> | undefined> {
  const spec = integration.manifest.api;
  const token = spec ? request.query[spec.tokenOption]?.trim() : undefined;
  if (!spec || !token) return undefined;
  let payload: unknown;
  try {
    payload = parseWebhookBody(
      integration.manifest,
      request.body,
      request.headers["content-type"] ?? "",
      request.query,
      request.headers,
    );
  } catch {
    return undefined; // the pipeline answers the bad body itself
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_LOOKUP_TIMEOUT_MS);
  try {
    const headers = {
      ...spec.headers,
      [spec.authHeader]: `${spec.authPrefix ?? ""}${token}`,
      accept: "application/json",
    };
    // One request per distinct path: an id mentioned twice, or a sender who is also mentioned, is asked once.
    const asked = new Map<string, Promise<Record<string, unknown> | undefined>>();
    const ask = (path: string) => {
      let pending = asked.get(path);
      if (pending === undefined) {
        pending = getJson(`https://${spec.host}${path}`, headers, controller.signal).then((answer) =>
          // Slack answers a failed call with a 200 and `"ok": false`: not an answer either.
          answer !== undefined && (spec.okField === undefined || answer[spec.okField] === true) ? answer : undefined,
        );
        asked.set(path, pending);
      }
      return pending;
    };
    const entries = await Promise.all(
      planLookups(spec, payload).map(async (planned) => {
        const path = fillPath(planned.path, payload, planned.id === undefined ? undefined : { id: planned.id });
        if (path === undefined || path.length > API_LOOKUP_MAX_PATH_CHARS) return [planned, undefined] as const;
        return [planned, await ask(path)] as const;
      }),
    );
    return collectAnswers(entries);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The path with each `{field.path}` replaced by the payload's value there, or undefined when one is
 * missing. Before the `?` a value is one path segment, after it one query value: either way it
 * cannot climb out (`../`, `?`, `#`, `/`, `&`, `=` are all encoded).
 */
export function fillPath(template: string, payload: unknown, values?: Record<string, string>): string | undefined {
  let missing = false;
  const fill = (part: string) =>
    part.replace(/\{([^{}]+)\}/g, (_, field: string) => {
      // A per-id lookup's `{id}` is the id found, not a payload field.
      const given = values && Object.hasOwn(values, field.trim()) ? values[field.trim()] : undefined;
      const value = given ?? readPath(payload, field.trim());
      const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
      if (text === "") missing = true;
      return encodeURIComponent(text);
    });
  const at = template.indexOf("?");
  const path = at < 0 ? fill(template) : `${fill(template.slice(0, at))}?${fill(template.slice(at + 1))}`;
  return missing ? undefined : path;
}

/** The answer when it is a 200 whose body is a JSON object (not an array), else undefined. */
async function getJson(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  try {
    const res = await fetch(url, { method: "GET", headers, redirect: "manual", signal });
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      return undefined;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > API_LOOKUP_MAX_RESPONSE_BYTES) {
        await reader.cancel();
        return undefined;
      }
      chunks.push(Buffer.from(value));
    }
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined; // timeout, connection error, not JSON: the lookup is absent
  }
}
