// Zabbix posts whatever its webhook script builds (doc.md gives one). Trigger names often
// already name the host ("Zabbix agent on db-1 is unreachable"); the topic adds the host only
// when the trigger does not, so each host's problem keeps its own topic without repeating it.
import type { TransformContext } from "../../src/webhooks/plugin";

export function problemTopic(hostname: string | undefined, trigger: string | undefined): string {
  const name = trigger?.trim() || "Zabbix problem";
  if (!hostname || name.toLowerCase().includes(hostname.toLowerCase())) return name;
  return `${hostname}: ${name}`;
}

export default function transform(
  payload: { hostname?: string; trigger?: string; item?: unknown },
  _context: TransformContext,
) {
  // The framework gives templates `item` (the element being rendered), which hides the payload's
  // own `item` field, so it is passed on as `itemText`.
  const itemText = typeof payload.item === "string" && payload.item !== "" ? payload.item : undefined;
  return { topic: problemTopic(payload.hostname, payload.trigger), itemText };
}
