// Amazon SNS: the Message is text that is often a JSON document (a CloudWatch alarm); reading it,
// finding the SNS topic's name in its ARN and the alarm's region code take code, not templates.
import { defineTransform, nonEmptyText } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

type Out = {
  snsTopic?: string;
  alarm?: Json;
  alarmMetrics?: string[];
  alarmDimensions?: string;
  alarmUrl?: string;
  messageJson?: string;
};

function parseMessage(text: string | undefined): unknown {
  const trimmed = text?.trim() ?? "";
  if (!trimmed.startsWith("{")) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

const dimensionsText = (dims: unknown): string | undefined => {
  if (!Array.isArray(dims)) return undefined;
  const parts = dims.filter(isObject).map((d) => `${String(d.name)}=${String(d.value)}`);
  return parts.length > 0 ? parts.join(", ") : undefined;
};

/** Metric names of a single-metric trigger, or of every metric (and expression) of a metric-math one. */
function metricsOf(trigger: Json): { names: string[]; dimensions?: string } {
  const name = nonEmptyText(trigger.MetricName);
  if (name) {
    const ns = nonEmptyText(trigger.Namespace);
    return { names: [ns ? `${ns} ${name}` : name], dimensions: dimensionsText(trigger.Dimensions) };
  }
  const names: string[] = [];
  let dimensions: string | undefined;
  for (const m of Array.isArray(trigger.Metrics) ? trigger.Metrics.filter(isObject) : []) {
    const stat = isObject(m.MetricStat) ? m.MetricStat : undefined;
    const metric = stat && isObject(stat.Metric) ? stat.Metric : undefined;
    if (metric && nonEmptyText(metric.MetricName)) {
      const ns = nonEmptyText(metric.Namespace);
      names.push(`${ns ? `${ns} ` : ""}${String(metric.MetricName)}${stat?.Stat ? ` (${String(stat.Stat)})` : ""}`);
      dimensions ??= dimensionsText(metric.Dimensions);
    } else if (nonEmptyText(m.Expression)) {
      names.push(`${nonEmptyText(m.Label) ?? String(m.Id)} = ${String(m.Expression)}`);
    }
  }
  return { names, dimensions };
}

export default defineTransform<Payload, Out>((payload) => {
  const out: Out = {};
  const arnParts = payload.TopicArn.split(":");
  out.snsTopic = nonEmptyText(arnParts[arnParts.length - 1]);
  const message = parseMessage(payload.Message);
  if (isObject(message) && nonEmptyText(message.AlarmName) && nonEmptyText(message.NewStateValue)) {
    out.alarm = message;
    if (isObject(message.Trigger)) {
      const { names, dimensions } = metricsOf(message.Trigger);
      if (names.length > 0) out.alarmMetrics = names;
      out.alarmDimensions = dimensions;
    }
    // arn:aws:cloudwatch:<region>:<account>:alarm:<name>: the console link needs a real region code.
    const arn = nonEmptyText(message.AlarmArn)?.split(":") ?? [];
    if (arn.length >= 7 && /^[a-z]{2}(-[a-z]+)+-\d$/.test(arn[3])) {
      out.alarmUrl =
        `https://${arn[3]}.console.aws.amazon.com/cloudwatch/home?region=${arn[3]}` +
        `#alarmsV2:alarm/${encodeURIComponent(String(message.AlarmName))}`;
    }
  } else if (isObject(message) || Array.isArray(message)) {
    out.messageJson = JSON.stringify(message, null, 2);
  }
  return out;
});
