// Gitea and Forgejo send the same payloads: their one transform is integrations/_shared/gitea/.
export { default } from "../_shared/gitea/transform";
