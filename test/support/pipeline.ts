// What a plugin's own tests need to run the pure pipeline on the plugin as the server loads it
// (plugins may not import the server's internals directly; test/support is their door).
export { ApiError } from "../../src/errors";
export { loadIntegrations } from "../../src/webhooks/loader";
export { runPipeline, type Outcome } from "../../src/webhooks/pipeline";
