#!/usr/bin/env node
// Launcher of the `memory-service` command: checks the Node version, then runs the built CLI.
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`memory-service needs Node.js 22.12 or newer (this is ${process.version}).\n`);
  process.exit(1);
}

// V8 sizes its heaps for throughput on the machine it finds: each thread's young generation by the machine's memory
// (128 MB for the main thread on 24 GiB), and the old generation grows by a factor of up to 4 between collections.
// A server's garbage is short-lived request data around a live set that does not grow, so `start` bounds both, which
// Node allows only when it starts: 8 MB semi-spaces, and an old generation that grows by half between collections.
// Measured on a hybrid load at 100k memories (BENCHMARKS.md, "Issue 27, sixth round"): the first kept the server
// 50-130 MB smaller at no cost in speed, the second about 100 MB more (a few ms of hybrid p95 in-process, none seen
// over HTTP). The process replaces itself with the same command plus the flags (same pid, same descriptors); a flag
// the operator gave on Node's command line (or the semi-space size in NODE_OPTIONS) is kept as it is, and where Node
// cannot replace a process (before 23.11, Windows) the server runs without them.
const HEAP_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=50'];
const flagName = (flag) => flag.replace(/=.*$/, '').replaceAll('_', '-');
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map(flagName);
const missing = HEAP_FLAGS.filter((flag) => !given.includes(flagName(flag)));
if (process.argv[2] === 'start' && typeof process.execve === 'function' && missing.length > 0) {
  const launcher = fileURLToPath(import.meta.url);
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...process.execArgv, ...missing, launcher, ...process.argv.slice(2)],
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
