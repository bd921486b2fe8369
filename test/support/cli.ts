// The operator CLI's commands run in the test's process (runCli, as src/cli.ts runs them): no
// process to start, nor sources to compile. test/cli.test.ts also runs the program itself.
import { errorLine, runCli } from "../../src/cliCommands";

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** What the command printed, and a failure as src/cli.ts reports it (its line, exit code 1). */
export async function runCommand(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = "";
  try {
    await runCli(args, { env, out: (text) => void (stdout += text) });
    return { stdout, stderr: "", code: 0 };
  } catch (err) {
    return { stdout, stderr: errorLine(err), code: 1 };
  }
}
