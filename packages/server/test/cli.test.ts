import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { runCapturing } from './cli-run.js';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(PACKAGE_DIR, 'bin', 'memory-service.js');
const KEY_PATTERN = /mem_[0-9a-f]{64}/;
const allKeys = (text: string) => text.match(new RegExp(KEY_PATTERN.source, 'g')) ?? [];
const URL_PATTERN = /listening on (http:\/\/[^\s]+)/;
const BOOTSTRAP_KEY = `mem_${'c3'.repeat(32)}`;

const directories: string[] = [];
function dataDir(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-service-cli-'));
  directories.push(directory);
  return directory;
}

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

const run = runCapturing;

/** Starts `memory-service start` in-process; `stop()` plays the part of SIGTERM. */
function startInProcess(env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  let stop: (signal: string) => void = () => undefined;
  const shutdown = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const exit = runCli(['start'], {
    env: { MEMORY_HOST: '127.0.0.1', MEMORY_PORT: '0', MEMORY_LOG_LEVEL: 'silent', ...env },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    waitForShutdown: () => shutdown,
  });
  return {
    exit,
    output: () => stdout,
    errors: () => stderr,
    /** Resolves with the URL once it is printed (or the exit code if the command ended first). */
    async ready(): Promise<string> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const match = URL_PATTERN.exec(stdout);
        if (match?.[1] && stdout.includes('Data ')) return match[1];
        const finished = await Promise.race([exit, new Promise((resolve) => setTimeout(() => resolve(null), 20))]);
        if (finished !== null) throw new Error(`start ended with ${String(finished)}: ${stderr}`);
        if (Date.now() > deadline) throw new Error(`start printed no URL: ${stdout}${stderr}`);
      }
    },
    stop: (signal = 'SIGTERM') => stop(signal),
  };
}

async function listMemories(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/api/sdk/v1/memories/list`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  await response.text();
  return response.status;
}

describe('memory-service help and usage', () => {
  it('prints the top-level help for --help, -h and help', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const result = await run(argv);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      for (const text of ['Usage:', 'start', 'keys create', 'keys list', 'keys revoke <id>']) {
        expect(result.stdout).toContain(text);
      }
    }
  });

  it('prints each command help', async () => {
    const cases: Array<[string[], string]> = [
      [['start', '--help'], 'Usage: memory-service start'],
      [['keys', '--help'], 'Usage: memory-service keys <command>'],
      [['keys', 'create', '--help'], 'Usage: memory-service keys create [--expires-in <duration>]'],
      [['keys', 'list', '-h'], 'Usage: memory-service keys list'],
      [['keys', 'revoke', '--help'], 'Usage: memory-service keys revoke <id>'],
      [['help', 'keys', 'revoke'], 'Usage: memory-service keys revoke <id>'],
      [['policy', '--help'], 'Usage: memory-service policy <command>'],
      [['policy', 'show', '--help'], 'Usage: memory-service policy show'],
      [['help', 'policy', 'set'], 'Usage: memory-service policy set <lexical|hybrid|auto>'],
    ];
    for (const [argv, heading] of cases) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout.startsWith(heading), argv.join(' ')).toBe(true);
    }
    expect((await run(['start', '--help'])).stdout).toContain('MEMORY_DATA_DIR');
    expect((await run(['start', '--help'])).stdout).toContain('MEMORY_GRAPH_AUTOPILOT');
  });

  it('prints the version', async () => {
    const result = await run(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers usage mistakes with exit code 2 and a hint, without a stack', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /Usage:/],
      [['launch'], /unknown command 'launch'[\s\S]*memory-service --help/],
      [['keys'], /Usage: memory-service keys/],
      [['keys', 'rotate'], /unknown command 'keys rotate'/],
      [['keys', 'list', '--all'], /keys list: Unknown option '--all'[\s\S]*memory-service keys list --help/],
      [['keys', 'revoke'], /missing the key id/],
      [['keys', 'revoke', 'a', 'b'], /unexpected argument 'b'/],
      [['keys', 'create', '--expires-in', '2y'], /--expires-in must be a duration like 90m, 12h or 30d/],
      [['keys', 'create', '--expires-in', '366d'], /from 1 minute to 365 days/],
      [['keys', 'create', '--expires-in', '0m'], /from 1 minute to 365 days/],
      [['keys', 'create', '--expires-in'], /keys create: Option '--expires-in <value>' argument missing/],
      [['start', 'now'], /unexpected argument 'now'/],
    ];
    for (const [argv, message] of cases) {
      const result = await run(argv, { MEMORY_DATA_DIR: dataDir() });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe('');
    }
  });
});

describe('memory-service keys', () => {
  it('creates, lists and revokes keys in the control database of MEMORY_DATA_DIR', async () => {
    const env = { MEMORY_DATA_DIR: dataDir() };
    const empty = await run(['keys', 'list'], env);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('No API keys yet');

    const now = new Date('2026-11-21T10:00:00.000Z');
    const first = await run(['keys', 'create'], env, () => now);
    expect(first.code).toBe(0);
    const firstKey = first.stdout.match(KEY_PATTERN)?.[0] as string;
    expect(firstKey).toBeDefined();
    expect(first.stdout).toContain('shown only this once');
    expect(first.stdout).toContain('expires:  never');
    const firstId = /id:\s+(\S+)/.exec(first.stdout)?.[1] as string;
    expect(firstId).toMatch(/^[0-9a-f-]{36}$/);

    const second = await run(['keys', 'create', '--expires-in', '30d'], env, () => now);
    expect(second.code).toBe(0);
    const secondKey = second.stdout.match(KEY_PATTERN)?.[0] as string;
    expect(second.stdout).toContain('expires:  2026-12-21T10:00:00Z');
    const secondId = /id:\s+(\S+)/.exec(second.stdout)?.[1] as string;

    const listed = await run(['keys', 'list'], env, () => now);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+PREVIEW\s+STATUS\s+CREATED\s+EXPIRES\s+MCP RULES$/);
    expect(lines).toHaveLength(3);
    expect(listed.stdout).toContain(`${firstKey.slice(0, 12)}${'*'.repeat(20)}${firstKey.slice(-4)}`);
    expect(listed.stdout).not.toContain(firstKey);
    expect(listed.stdout).not.toContain(secondKey);
    expect(lines.find((line) => line.startsWith(firstId))).toMatch(/\sactive\s+2026-11-21T10:00:00Z\s+never\s+-$/);
    expect(lines.find((line) => line.startsWith(secondId))).toMatch(/\sactive\s.*2026-12-21T10:00:00Z\s+-$/);

    const later = await run(['keys', 'list'], env, () => new Date('2026-12-22T00:00:00.000Z'));
    expect(later.stdout.split('\n').find((line) => line.startsWith(secondId))).toContain(' expired ');

    const revoked = await run(['keys', 'revoke', firstId], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked API key ${firstId}`);
    const again = await run(['keys', 'revoke', firstId], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already revoked');
    const unknown = await run(['keys', 'revoke', '00000000-0000-4000-8000-000000000000'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no API key with id 00000000-0000-4000-8000-000000000000');
    const afterRevoke = await run(['keys', 'list'], env);
    expect(afterRevoke.stdout.split('\n').find((line) => line.startsWith(firstId))).toContain(' revoked ');

    // The created keys are the server's keys: the revoked one is refused, the other works.
    const server = startInProcess(env);
    const url = await server.ready();
    expect(server.output()).not.toMatch(KEY_PATTERN);
    expect(await listMemories(url, firstKey)).toBe(401);
    expect(await listMemories(url, secondKey)).toBe(200);
    server.stop();
    expect(await server.exit).toBe(0);
  });

  it('reports a runtime failure with exit code 1 and one line, no stack', async () => {
    const result = await run(['keys', 'list'], { MEMORY_DATA_DIR: dataDir(), MEMORY_BOOTSTRAP_API_KEY: 'not-a-key' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'memory-service: MEMORY_BOOTSTRAP_API_KEY must be "mem_" followed by 64 hexadecimal characters\n',
    );
  });
});

describe('memory-service start', () => {
  it('prints the URL and a one-time key on a first start, and no new key on the next', async () => {
    const env = { MEMORY_DATA_DIR: dataDir() };
    const first = startInProcess(env);
    const url = await first.ready();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const keys = allKeys(first.output());
    expect(keys).toHaveLength(1);
    expect(first.output()).toContain('memory-service keys create');
    const key = keys[0] as string;
    expect(await listMemories(url, key)).toBe(200);
    first.stop('SIGINT');
    expect(await first.exit).toBe(0);
    expect(first.output()).toContain('Received SIGINT, shutting down');
    expect(first.output()).toContain('Stopped.');

    const second = startInProcess(env);
    const secondUrl = await second.ready();
    expect(second.output()).not.toMatch(KEY_PATTERN);
    expect(await listMemories(secondUrl, key)).toBe(200);
    second.stop();
    expect(await second.exit).toBe(0);

    const listed = await run(['keys', 'list'], env);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('creates no key when MEMORY_BOOTSTRAP_API_KEY is set', async () => {
    const server = startInProcess({ MEMORY_DATA_DIR: dataDir(), MEMORY_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
    const url = await server.ready();
    expect(server.output()).not.toMatch(KEY_PATTERN);
    expect(await listMemories(url, BOOTSTRAP_KEY)).toBe(200);
    server.stop();
    expect(await server.exit).toBe(0);
  });

  it('warns at start when MEMORY_BOOTSTRAP_API_KEY was revoked (it stays revoked across restarts)', async () => {
    const env = {
      MEMORY_DATA_DIR: dataDir(),
      MEMORY_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY,
      MEMORY_ADMIN_TOKEN: 'op-token-1234',
    };
    const first = startInProcess(env);
    const url = await first.ready();
    expect(first.errors()).toBe('');
    const revoked = await fetch(`${url}/api/sdk/v1/management/keys`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer op-token-1234' },
    });
    expect(revoked.status).toBe(200);
    first.stop();
    expect(await first.exit).toBe(0);

    const second = startInProcess(env);
    const secondUrl = await second.ready();
    expect(second.errors()).toMatch(
      /warning: MEMORY_BOOTSTRAP_API_KEY was revoked at \S+: requests with it answer INVALID_API_KEY/,
    );
    expect(await listMemories(secondUrl, BOOTSTRAP_KEY)).toBe(401);
    second.stop();
    expect(await second.exit).toBe(0);
  });

  it('fails with exit code 1 and a plain message when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const server = startInProcess({ MEMORY_DATA_DIR: dataDir(), MEMORY_PORT: String(port) });
      expect(await server.exit).toBe(1);
      expect(server.errors()).toBe(
        `memory-service: could not start: the address 127.0.0.1:${port} is already in use (set MEMORY_HOST or MEMORY_PORT)\n`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('the memory-service bin (built)', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('starts, prints the URL and a working key, and exits 0 on SIGTERM', async () => {
    expect(existsSync(path.join(PACKAGE_DIR, 'dist', 'cli.js')), 'dist/cli.js is missing: run pnpm build first').toBe(
      true,
    );
    const started = spawn(process.execPath, [BIN, 'start'], {
      env: { PATH: process.env.PATH ?? '', MEMORY_PORT: '0', MEMORY_DATA_DIR: dataDir(), MEMORY_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let stdout = '';
    let stderr = '';
    started.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 20_000;
    while (!(URL_PATTERN.test(stdout) && KEY_PATTERN.test(stdout))) {
      if (started.exitCode !== null) throw new Error(`the bin exited early: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`the bin printed no URL and key: ${stdout}${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const url = URL_PATTERN.exec(stdout)?.[1] as string;
    const key = stdout.match(KEY_PATTERN)?.[0] as string;
    expect(await listMemories(url, key)).toBe(200);
    started.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('Stopped.');
    expect(stderr).toBe('');
  }, 30_000);
});
