import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The BUILT server's launcher: the browser tests run what `pnpm start` runs, console assets included. */
const LAUNCHER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/bin/memory-service.js');

/** A `memory-service start` on 127.0.0.1 with a free port and a temp data dir. */
export interface BuiltServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What `memory-service start` printed. */
  banner: string;
  apiKey: string;
  adminToken: string;
  stop: () => Promise<void>;
}

/** Starts `memory-service start` and resolves once it printed where it listens (the console line included). */
export async function startBuiltServer(): Promise<BuiltServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-console-test-'));
  const apiKey = `mem_${'c0'.repeat(32)}`;
  const adminToken = 'console-test-admin-token-0123456789';
  const child = spawn(process.execPath, [LAUNCHER, 'start'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '',
      MEMORY_HOST: '127.0.0.1',
      MEMORY_PORT: '0',
      MEMORY_DATA_DIR: dataDir,
      MEMORY_BOOTSTRAP_API_KEY: apiKey,
      MEMORY_ADMIN_TOKEN: adminToken,
      // Fast and deterministic; hybrid search still has vectors to use.
      MEMORY_EMBEDDING_MODEL: 'local/hash-384',
      MEMORY_RATE_LIMIT_PER_MINUTE: '0',
      MEMORY_IP_RATE_LIMIT_PER_MINUTE: '0',
      MEMORY_LOG_LEVEL: 'warn',
    },
  });
  const stop = () => stopProcess(child).finally(() => rmSync(dataDir, { recursive: true, force: true }));
  try {
    const banner = await waitForBanner(child);
    const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
    if (url === undefined) throw new Error(`no address in the banner:\n${banner}`);
    return { url, banner, apiKey, adminToken, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function waitForBanner(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`the server did not start within 30 s:\n${stdout}${stderr}`)),
      30_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The banner ends with the data dir line.
      if (/\n\s+Data\s.*\n/.test(stdout)) {
        clearTimeout(timer);
        resolve(stdout);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before it listened:\n${stdout}${stderr}`));
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
