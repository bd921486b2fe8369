// Operator CLI: npm run cli -- <command> [--options]; the commands are in src/cliCommands.ts.
import { runCli } from "./cliCommands";

runCli(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
