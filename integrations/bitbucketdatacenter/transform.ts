// Bitbucket Data Center sends what Bitbucket Server sends: the one transform for both is
// integrations/_shared/bitbucket3/.
export { default } from "../_shared/bitbucket3/transform";
