// Knex CLI entry point; the configuration itself lives in src/ (one source of truth).
import { loadConfig } from "./src/config";
import { knexConfig } from "./src/db/knex";

const config = loadConfig();
module.exports = knexConfig(config.databaseUrl, config.dataDir);
