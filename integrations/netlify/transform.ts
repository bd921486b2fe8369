// Netlify deploy notifications: links to the deploy's log page (admin URL + deploy id), the
// context in words, and the deploy time in seconds made readable.
import { compactDuration } from "../../src/webhooks/plugin";

interface Payload {
  id?: string;
  admin_url?: string | null;
  context?: string | null;
  review_id?: number | null;
  deploy_time?: number | null;
}

const CONTEXTS: Record<string, string> = {
  production: "production",
  "deploy-preview": "deploy preview",
  "branch-deploy": "branch deploy",
  dev: "dev",
};

export default function transform(payload: Payload) {
  const admin = payload.admin_url?.replace(/\/$/, "");
  return {
    deployPage: admin && payload.id ? `${admin}/deploys/${payload.id}` : (admin ?? undefined),
    contextName: payload.context ? (CONTEXTS[payload.context] ?? payload.context.replace(/-/g, " ")) : undefined,
    took: typeof payload.deploy_time === "number" ? compactDuration(payload.deploy_time) : undefined,
  };
}
