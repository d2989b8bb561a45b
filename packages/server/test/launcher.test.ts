import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** The launcher users run (`memory-service`, `pnpm start`): it starts the built CLI. */
const LAUNCHER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/memory-service.js');
const SEMI_SPACE = '--max-semi-space-size=8';
const GROWING = '--heap-growing-percent=50';

interface Started {
  child: ChildProcess;
  url: string;
  /** The command line the process runs now (`/proc/<pid>/cmdline`), after any replacement. */
  commandLine: () => string[];
}

const running: Array<{ child: ChildProcess; dataDir: string }> = [];

async function startLauncher(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Started> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-launcher-test-'));
  const child = spawn(process.execPath, [...nodeArgs, LAUNCHER, 'start'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '',
      MEMORY_HOST: '127.0.0.1',
      MEMORY_PORT: '0',
      MEMORY_DATA_DIR: dataDir,
      MEMORY_BOOTSTRAP_API_KEY: `mem_${'1a'.repeat(32)}`,
      MEMORY_EMBEDDING_MODEL: 'local/hash-384',
      MEMORY_LOG_LEVEL: 'warn',
      ...env,
    },
  });
  running.push({ child, dataDir });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no address within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output}`));
    });
  });
  const commandLine = () => readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  return { child, url, commandLine };
}

function stopped(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

afterEach(async () => {
  for (const { child, dataDir } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await stopped(child);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

// The flags need Node to replace a process (23.11 and later), and the test reads the command line from /proc.
const canReplace = typeof (process as { execve?: unknown }).execve === 'function' && process.platform === 'linux';

describe.skipIf(!canReplace)('memory-service start (the launcher)', () => {
  it("bounds V8's heaps, serves, and stops on SIGTERM as the same process", async () => {
    const server = await startLauncher();
    const args = server.commandLine();
    expect(args).toContain(SEMI_SPACE);
    expect(args).toContain(GROWING);
    expect(args.slice(-2)).toEqual([LAUNCHER, 'start']);
    const health = await fetch(`${server.url}/api/sdk/v1/health`);
    expect(health.status).toBe(200);
    // The pid the caller holds is the server: a signal to it reaches the server, which closes and exits 0.
    server.child.kill('SIGTERM');
    expect(await stopped(server.child)).toBe(0);
  }, 60_000);

  it('keeps a heap flag the operator set in NODE_OPTIONS or on the command line, and adds the others', async () => {
    const fromEnvironment = await startLauncher({ NODE_OPTIONS: '--max-semi-space-size=32' });
    expect(fromEnvironment.commandLine()).not.toContain(SEMI_SPACE);
    expect(fromEnvironment.commandLine()).toContain(GROWING);
    expect((await fetch(`${fromEnvironment.url}/api/sdk/v1/health`)).status).toBe(200);
    const fromCommandLine = await startLauncher({}, ['--max_semi_space_size=16', '--heap-growing-percent=0']);
    const args = fromCommandLine.commandLine();
    expect(args).toEqual(expect.arrayContaining(['--max_semi_space_size=16', '--heap-growing-percent=0']));
    expect(args).not.toContain(SEMI_SPACE);
    expect(args).not.toContain(GROWING);
  }, 60_000);
});
