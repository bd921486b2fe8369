// Bitbucket Server and Bitbucket Data Center send the same payloads: their one transform is
// integrations/_shared/bitbucket3/.
export { default } from "../_shared/bitbucket3/transform";
