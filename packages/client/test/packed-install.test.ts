import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@memory-service/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, installPackedProject, runCommand } from './packed-project.js';

// The published packages as a user gets them: `pnpm pack`ed, installed from the tarballs into a fresh project, and
// loaded by plain Node in a child process with `require` (the CommonJS build) and `import` (the ESM build), each
// making real calls to a real server.

const API_KEY = `mem_${'7e'.repeat(32)}`;
const PACKED = ['contract', 'client', 'ai-middleware'] as const;

let folder: string;
let project: string;
let server: RunningServer;

beforeAll(async () => {
  for (const packageName of PACKED) assertBuilt(packageName);
  folder = await mkdtemp(join(tmpdir(), 'memory-client-packed-'));
  const [installed, running] = await Promise.all([
    installPackedProject(folder, PACKED),
    startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir: join(folder, 'data'),
      bootstrapApiKey: API_KEY,
      logLevel: 'silent',
    }),
  ]);
  project = installed;
  server = running;
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

/** Runs a script with plain Node in the installed project; it prints one JSON line, which is returned parsed. */
async function runScript(format: 'commonjs' | 'module', source: string): Promise<Record<string, unknown>> {
  const { NODE_OPTIONS: _inheritedLoaders, ...environment } = process.env;
  const { stdout } = await runCommand(process.execPath, ['--input-type', format, '--eval', source], {
    cwd: project,
    env: { ...environment, MEMORY_BASE_URL: server.url, MEMORY_API_KEY: API_KEY },
  });
  const lastLine = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(lastLine) as Record<string, unknown>;
}

// The same calls from both module formats; `load` is `require(name)` or `await import(name)`.
const clientCalls = (load: (name: string) => string, resolve: (name: string) => string) => `
  const { createMemoryClient, MemoryApiError, NotFoundError } = ${load('@memory-service/client')};
  const client = createMemoryClient({ baseUrl: process.env.MEMORY_BASE_URL });
  const health = await client.health({ timeoutMs: 5000 });
  const scope = { tenantId: 'packed', userId: 'ada' };
  const mcp = createMemoryClient({ baseUrl: process.env.MEMORY_BASE_URL + '/api/mcp', scope });
  const listed = await mcp.memories.list();
  await mcp.close();
  const missing = await client.memories.forget({ id: 'no-such-memory', scope }).catch((error) => error);
  console.log(JSON.stringify({
    resolved: ${resolve('@memory-service/client')},
    status: health.status,
    mcpListed: Array.isArray(listed.memories),
    missing: [NotFoundError.isInstance(missing), MemoryApiError.isInstance(missing), missing.code],
  }));
`;

const middlewareCalls = (load: (name: string) => string, resolve: (name: string) => string) => `
  const { memoryTools } = ${load('@memory-service/ai-middleware')};
  const tools = memoryTools({
    client: { baseUrl: process.env.MEMORY_BASE_URL, apiKey: process.env.MEMORY_API_KEY },
    scope: { tenantId: 'packed', userId: 'ada' },
    include: ['searchMemories'],
  });
  const result = await tools.searchMemories.execute({ query: 'deploy' }, { toolCallId: 'call-1', messages: [] });
  console.log(JSON.stringify({ resolved: ${resolve('@memory-service/ai-middleware')}, ok: result.ok }));
`;

const commonjs = {
  load: (name: string) => `require('${name}')`,
  resolve: (name: string) => `require.resolve('${name}')`,
  wrap: (body: string) => `(async () => {${body}})().catch((error) => { console.error(error); process.exit(1); });`,
};
const esm = {
  load: (name: string) => `await import('${name}')`,
  resolve: (name: string) => `import.meta.resolve('${name}')`,
  wrap: (body: string) => body,
};

// Each case starts Node processes that load the installed packages (the middleware loads `ai` twice): seconds on a
// busy 2-core machine, past the default 5 s.
describe('the packed packages, installed from their tarballs', { timeout: 60_000 }, () => {
  it('@memory-service/client works with require (the CommonJS build)', async () => {
    const result = await runScript('commonjs', commonjs.wrap(clientCalls(commonjs.load, commonjs.resolve)));
    expect(result).toMatchObject({ status: 'ok', mcpListed: true, missing: [true, true, 'MEMORY_NOT_FOUND'] });
    expect(result.resolved).toMatch(/node_modules.*@memory-service[\\/]client[\\/]dist[\\/]index\.cjs$/);
  });

  it('@memory-service/client works with import (the ESM build)', async () => {
    const result = await runScript('module', esm.wrap(clientCalls(esm.load, esm.resolve)));
    expect(result).toMatchObject({ status: 'ok', mcpListed: true, missing: [true, true, 'MEMORY_NOT_FOUND'] });
    expect(result.resolved).toMatch(/node_modules.*@memory-service\/client\/dist\/index\.js$/);
  });

  // `ai` is ESM-only: the middleware's CommonJS build loads it with require(esm), which Node has by default since 22.12.
  it('@memory-service/ai-middleware works with require and with import', async () => {
    const required = await runScript('commonjs', commonjs.wrap(middlewareCalls(commonjs.load, commonjs.resolve)));
    expect(required).toMatchObject({ ok: true });
    expect(required.resolved).toMatch(/ai-middleware[\\/]dist[\\/]index\.cjs$/);
    const imported = await runScript('module', esm.wrap(middlewareCalls(esm.load, esm.resolve)));
    expect(imported).toMatchObject({ ok: true });
    expect(imported.resolved).toMatch(/ai-middleware\/dist\/index\.js$/);
  });

  // Runs tsc over a small project: seconds on a busy 2-core machine, past the default 5 s.
  it('has types that resolve for require and import, under exactOptionalPropertyTypes', {
    timeout: 60_000,
  }, async () => {
    const usage = (load: string) => `${load}
const apiKey: string | undefined = process.env.MEMORY_API_KEY;
const client = createMemoryClient({ baseUrl: 'http://127.0.0.1:1', apiKey, timeoutMs: undefined });
const options: RequestOptions = { signal: undefined, maxRetries: 0 };
export const pending: Promise<{ status: string }> = client.health(options);
export function codeOf(error: unknown): MemoryErrorCode | null {
  return MemoryApiError.isInstance(error) ? error.code : null;
}
`;
    const names = 'createMemoryClient, MemoryApiError, type MemoryErrorCode, type RequestOptions';
    await writeFile(join(project, 'check-require.cts'), usage(`import { ${names} } from '@memory-service/client';`));
    await writeFile(join(project, 'check-import.mts'), usage(`import { ${names} } from '@memory-service/client';`));
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const flags = ['--strict', '--exactOptionalPropertyTypes', '--noEmit', '--skipLibCheck', '--types', 'node'];
    const module = ['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023'];
    const typesRoot = join(createRequire(import.meta.url).resolve('@types/node/package.json'), '..', '..');
    await runCommand(
      process.execPath,
      [
        tsc,
        ...flags,
        ...module,
        '--typeRoots',
        typesRoot,
        'check-require.cts',
        'check-import.mts',
        '--traceResolution',
      ],
      { cwd: project },
    ).then(({ stdout }) => {
      // Each file resolved the client through its own condition: .d.cts for require, .d.ts for import.
      expect(stdout).toMatch(
        /'@memory-service\/client' was successfully resolved to '[^']*client\/dist\/index\.d\.cts'/,
      );
      expect(stdout).toMatch(
        /'@memory-service\/client' was successfully resolved to '[^']*client\/dist\/index\.d\.ts'/,
      );
    });
  });
});
