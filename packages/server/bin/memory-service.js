#!/usr/bin/env node
// Launcher of the `memory-service` command: checks the Node version, then runs the built CLI.
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`memory-service needs Node.js 22.12 or newer (this is ${process.version}).\n`);
  process.exit(1);
}

// V8 sizes each thread's young generation by the machine's memory, not by what the thread needs (128 MB for the main
// thread on 24 GiB), and it can only be bounded when Node starts. A server's garbage is short-lived request data, so
// `start` bounds it: 8 MB semi-spaces kept the server 50-130 MB smaller at no measured cost in speed (the server
// README, Workers, "Memory"). The process replaces itself with the same command and the flag (same pid, same
// descriptors); a semi-space size of the user's own (command line or NODE_OPTIONS) is kept as it is, and where Node
// cannot replace a process (before 23.11, Windows) the server runs without the bound.
const SEMI_SPACE_FLAG = '--max-semi-space-size=8';
const namesSemiSpace = (text) => /--max[-_]semi[-_]space[-_]size/.test(text);
if (
  process.argv[2] === 'start' &&
  typeof process.execve === 'function' &&
  !process.execArgv.some(namesSemiSpace) &&
  !namesSemiSpace(process.env.NODE_OPTIONS ?? '')
) {
  const launcher = fileURLToPath(import.meta.url);
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...process.execArgv, SEMI_SPACE_FLAG, launcher, ...process.argv.slice(2)],
      process.env,
    );
  } catch {
    // Not replaced: run here, unbounded.
  }
}

let cli;
try {
  cli = await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli.js')) throw error;
  process.stderr.write('memory-service is not built yet: run `pnpm build` first.\n');
  process.exit(1);
}
process.exit(await cli.runCli(process.argv.slice(2)));
