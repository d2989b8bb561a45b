#!/usr/bin/env node
// Launcher of the `memory-service` command: checks the Node version, then runs the built CLI.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`memory-service needs Node.js 22.12 or newer (this is ${process.version}).\n`);
  process.exit(1);
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
