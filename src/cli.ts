// Operator CLI: npm run cli -- <command> [--options]; the commands are in src/cliCommands.ts.
import { errorLine, runCli } from "./cliCommands";

runCli(process.argv.slice(2)).catch((err) => {
  process.stderr.write(errorLine(err));
  process.exit(1);
});
