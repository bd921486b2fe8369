// Preview: a delivery's input (integration, headers, query, body) through the same pipeline, with
// the organization's overrides, answered with what would be posted. Nothing is posted, logged or
// claimed, and signatures are not checked.
import type { RealmRow } from "../../db/rows";
import { ApiError, Errors } from "../../errors";
import { limitMarkdown, limitTopic } from "../../webhooks/safeMarkdown";
import type { PipelineThreads } from "../../webhooks/pipelineThreads";
import type { IntegrationRegistry } from "../../webhooks/registry";
import { renderMarkdown } from "../../markdown/markdown";
import type { WebhookOverrides } from "./overrides";

export interface PreviewInput {
  integration: string;
  headers: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Buffer;
}

export interface PreviewResult {
  outcome: "message" | "ignored" | "error";
  event?: string;
  event_key?: string;
  messages: { topic: string; content: string; rendered_content: string; direct: boolean }[];
  reason?: string;
  error?: { code: string; msg: string };
}

const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

export async function previewDelivery(
  integrations: IntegrationRegistry,
  overrides: WebhookOverrides,
  pipeline: Pick<PipelineThreads, "run">,
  realm: RealmRow,
  input: PreviewInput,
): Promise<PreviewResult> {
  const integration = integrations.get(input.integration);
  if (!integration) throw Errors.notFound(`No integration named '${input.integration}'`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = asText(value);
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.query)) query[name] = asText(value);
  // On a render thread like a delivery, so a preview has the same time and memory limits.
  const result = await pipeline.run(integration, {
    headers,
    query,
    body: input.body,
    overrides: await overrides.forIntegration(realm.id, integration.name),
  });
  if ("error" in result) {
    if (!(result.error instanceof ApiError)) throw result.error;
    return { outcome: "error", messages: [], error: { code: result.error.code, msg: result.error.message } };
  }
  const { outcome } = result;
  const event = { event: outcome.event?.eventType, event_key: "eventKey" in outcome ? outcome.eventKey : undefined };
  if (outcome.kind === "unsupported") {
    const err = Errors.unsupportedEvent(integration.manifest.displayName, outcome.event.eventType, outcome.reply);
    return { outcome: "error", ...event, messages: [], error: { code: err.code, msg: err.message } };
  }
  if (outcome.kind === "ignored") return { outcome: "ignored", ...event, messages: [], reason: outcome.reason };
  return {
    outcome: "message",
    ...event,
    messages: outcome.messages.map((m) => ({
      topic: limitTopic(m.topic),
      content: limitMarkdown(m.content),
      rendered_content: renderMarkdown(limitMarkdown(m.content)),
      direct: m.direct === true,
    })),
  };
}
