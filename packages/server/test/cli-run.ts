import { runCli } from '../src/cli.js';

/** What one in-process CLI run printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output and only the given environment. */
export async function runCapturing(
  argv: string[],
  env: Record<string, string> = {},
  now?: () => Date,
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    waitForShutdown: () => new Promise<string>(() => undefined),
    ...(now === undefined ? {} : { now }),
  });
  return { code, stdout, stderr };
}
