// Opsgenie's webhook puts the action in `action` and the alert in `alert`, but the alert's
// fields vary by action (an Escalate carries only the alert's id) and its timestamps mix units
// (createdAt in milliseconds, updatedAt in nanoseconds). This works out a readable action name
// for actions the templates don't know, the priority label, the tag lists (comma-separated text)
// and how long a closed alert was open; the topic is a manifest output.
import { durationInWords, type TransformContext } from "../../src/webhooks/plugin";

interface Alert {
  priority?: string | number;
  createdAt?: number;
  updatedAt?: number;
  addedTags?: string;
  removedTags?: string;
}

/** "AddRecipient" → "add recipient", "UnAcknowledge" → "unacknowledge". */
export function humanize(action: string): string {
  return action
    .replace(/^UnAcknowledge$/, "Unacknowledge")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/** Opsgenie timestamps: seconds, milliseconds or nanoseconds → milliseconds. */
export function toMillis(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return undefined;
  if (value > 1e17) return Math.round(value / 1e6);
  if (value < 1e11) return value * 1000;
  return value;
}

const tagList = (csv: string | undefined) =>
  (csv ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");

export default function transform(payload: { action?: string; alert?: Alert }, _context: TransformContext) {
  const alert = payload.alert ?? {};
  const created = toMillis(alert.createdAt);
  const updated = toMillis(alert.updatedAt);
  const priority = alert.priority === undefined || alert.priority === "" ? undefined : String(alert.priority);
  return {
    actionName: humanize(payload.action ?? "update"),
    priorityLabel: priority && /^\d$/.test(priority) ? `P${priority}` : priority,
    added: tagList(alert.addedTags),
    removed: tagList(alert.removedTags),
    openFor:
      payload.action === "Close" && created !== undefined && updated !== undefined && updated >= created
        ? durationInWords(updated - created)
        : undefined,
  };
}
