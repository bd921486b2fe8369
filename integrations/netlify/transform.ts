// Netlify deploy notifications: links to the deploy's log page (admin URL + deploy id), the
// context in words, and the deploy time in seconds made readable.

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

function formatSeconds(value: unknown): string | undefined {
  const s = typeof value === "number" ? Math.round(value) : Number.NaN;
  if (!Number.isFinite(s) || s < 0) return undefined;
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ""}`;
}

export default function transform(payload: Payload) {
  const admin = payload.admin_url?.replace(/\/$/, "");
  return {
    deployPage: admin && payload.id ? `${admin}/deploys/${payload.id}` : (admin ?? undefined),
    contextName: payload.context ? (CONTEXTS[payload.context] ?? payload.context.replace(/-/g, " ")) : undefined,
    took: formatSeconds(payload.deploy_time),
  };
}
