// The render thread's entry point when it runs bundled (renderThreadBundle.ts): the framework is
// in the bundle, but a plugin's transform.ts is still loaded from its folder, through tsx.
import Module from "node:module";
import path from "node:path";
import * as pluginApi from "./plugin";
import "./pipelineWorker";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- registers tsx's require hook for transform.ts
require("tsx/cjs");

// A transform imports the framework as src/webhooks/plugin.ts. It must get the bundle's own
// instance, not a second copy compiled from the sources: errors and safe strings are recognized
// by their class (refusePayload's ApiError), so two copies would not know each other's.
// (Bundled, __dirname still names this file's source folder.)
const pluginFile = path.join(__dirname, "plugin.ts");
const cached = new Module(pluginFile);
cached.filename = pluginFile;
cached.exports = pluginApi;
cached.loaded = true;
require.cache[pluginFile] = cached;
