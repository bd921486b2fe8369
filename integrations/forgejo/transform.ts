// Forgejo sends Gitea's payloads: the one transform for both is integrations/_shared/gitea/.
export { default } from "../_shared/gitea/transform";
