import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_CACHE_TTL_MS } from '../src/store/control-cache.js';
import { Database } from '../src/store/database.js';
import { namespaceFetch } from '../src/tenancy/host-routed-fetch.js';
import { ADMIN_TOKEN, TEST_KEY } from './harness.js';
import { type SqldServer, startSqld } from './sqld.js';

/**
 * Two server processes (the built server, as deployed) share one libSQL server: the control plane and the default
 * workspace live in namespaces of it, each tenant in its own namespace. Either process serves any tenant.
 */
const distEntry = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js')).href;

interface ServerProcess {
  child: ChildProcess;
  url: string;
  dataDir: string;
}

let sqld: SqldServer;
const processes: ServerProcess[] = [];

async function createNamespace(name: string): Promise<void> {
  const response = await fetch(`${sqld.adminUrl}/v1/namespaces/${name}/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(response.ok).toBe(true);
}

function launch(): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-multi-process-'));
  const environment = {
    MEMORY_CONTROL_DB_URL: sqld.url,
    MEMORY_CONTROL_DB_NAMESPACE: 'control',
    MEMORY_DEFAULT_DB_URL: sqld.url,
    MEMORY_DEFAULT_DB_NAMESPACE: 'workspace',
    MEMORY_TENANT_PROVISIONER: 'sqld',
    MEMORY_SQLD_ADMIN_URL: sqld.adminUrl ?? '',
    MEMORY_SQLD_URL: sqld.url,
    MEMORY_BOOTSTRAP_API_KEY: TEST_KEY,
    MEMORY_ADMIN_TOKEN: ADMIN_TOKEN,
    MEMORY_EMBEDDING_MODEL: 'local/hash-384',
    MEMORY_RATE_LIMIT_PER_MINUTE: '0',
    MEMORY_IP_RATE_LIMIT_PER_MINUTE: '0',
    MEMORY_LOG_LEVEL: 'silent',
  };
  const script = `
    const { startServer } = await import(${JSON.stringify(distEntry)});
    const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: ${JSON.stringify(dataDir)} },
      { environment: ${JSON.stringify(environment)} });
    process.stdout.write('URL ' + server.url + '\\n');
    process.on('SIGTERM', () => server.close().then(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /URL (\S+)/.exec(output);
      if (match?.[1]) {
        const started = { child, url: match[1], dataDir };
        processes.push(started);
        resolve(started);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}: ${errors.slice(-2_000)}`)));
  });
}

/** The namespace a tenant got, as its mapping records it (names are keyed digests: nobody computes them). */
async function tenantNamespace(tenantId: string): Promise<string> {
  const mappings = await call(processes[0] as ServerProcess, 'GET', '/management/tenant-overrides');
  const mapping = (mappings.body.data.tenants as Array<{ tenantId: string; dbName: string }>).find(
    (tenant) => tenant.tenantId === tenantId,
  );
  return mapping?.dbName as string;
}

async function call(server: ServerProcess, method: string, route: string, body?: unknown, token = TEST_KEY) {
  const response = await fetch(`${server.url}/api/sdk/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { ok: boolean; data: any; error: any } };
}

beforeAll(async () => {
  sqld = await startSqld({ namespaces: true });
  await createNamespace('control');
  await createNamespace('workspace');
}, 60_000);

afterAll(async () => {
  for (const server of processes) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(server.dataDir, { recursive: true, force: true });
  }
  await sqld?.stop();
});

describe('two server processes on one libSQL server', () => {
  let first: ServerProcess;
  let second: ServerProcess;

  beforeAll(async () => {
    [first, second] = await Promise.all([launch(), launch()]);
  }, 60_000);

  it('reads through one process what was written through the other, for tenants and the workspace', async () => {
    const tenantAdd = await call(first, 'POST', '/memories/add', {
      content: 'Ledger exports run every Tuesday',
      scope: { tenantId: 'acme' },
    });
    expect(tenantAdd.status).toBe(201);
    const workspaceAdd = await call(second, 'POST', '/memories/add', { content: 'The office plant is a ficus' });
    expect(workspaceAdd.status).toBe(201);

    const tenantSearch = await call(second, 'POST', '/memories/search', {
      query: 'ledger exports',
      scope: { tenantId: 'acme' },
    });
    expect(tenantSearch.body.data.memories.map((memory: { id: string }) => memory.id)).toEqual([
      tenantAdd.body.data.id,
    ]);
    const workspaceSearch = await call(first, 'POST', '/memories/search', { query: 'ficus' });
    expect(workspaceSearch.body.data.memories.map((memory: { id: string }) => memory.id)).toEqual([
      workspaceAdd.body.data.id,
    ]);

    // The tenant really lives in its own namespace of the shared server, not in either process's data dir.
    const tenantDatabase = await Database.open({
      url: sqld.url,
      fetch: namespaceFetch(await tenantNamespace('acme')),
    });
    try {
      expect(await tenantDatabase.all('SELECT content FROM memories')).toEqual([
        { content: 'Ledger exports run every Tuesday' },
      ]);
    } finally {
      await tenantDatabase.close();
    }
  });

  it('indexes each memory once although both processes index the tenant', async () => {
    const scope = { tenantId: 'shared-index' };
    const writes = Array.from({ length: 40 }, (_, index) =>
      call(index % 2 === 0 ? first : second, 'POST', '/memories/add', {
        content: `Shared indexing note ${index} about release trains`,
        scope,
      }),
    );
    const ids = (await Promise.all(writes)).map((response) => {
      expect(response.status).toBe(201);
      return response.body.data.id as string;
    });
    // Both processes have the tenant open (each served writes), so both run its indexer. Wait, bounded, until no job
    // is pending as either process sees it.
    const pending = async (server: ServerProcess) =>
      (await call(server, 'GET', `/management/embeddings/observability?tenantId=${scope.tenantId}`)).body.data.queue
        .indexPending as number;
    const deadline = Date.now() + 60_000;
    while ((await pending(first)) + (await pending(second)) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await pending(first)).toBe(0);

    const tenantDatabase = await Database.open({
      url: sqld.url,
      fetch: namespaceFetch(await tenantNamespace(scope.tenantId)),
    });
    try {
      const jobs = await tenantDatabase.all<{ memory_id: string; count: number }>(
        `SELECT memory_id, COUNT(*) AS count FROM embedding_jobs WHERE status = 'succeeded' GROUP BY memory_id`,
      );
      expect(jobs.map((job) => job.memory_id).sort()).toEqual([...ids].sort());
      expect(jobs.every((job) => job.count === 1)).toBe(true);
    } finally {
      await tenantDatabase.close();
    }
  });

  it('stops a key revoked through one process on the other within the control cache time', async () => {
    const created = await call(
      first,
      'POST',
      '/management/keys',
      {
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
      ADMIN_TOKEN,
    );
    expect(created.status).toBe(200);
    const key = created.body.data.apiKey as string;
    expect((await call(second, 'POST', '/memories/list', {}, key)).status).toBe(200);

    const keyId = created.body.data.key.id as string;
    const revoked = await call(first, 'DELETE', `/management/keys?keyId=${keyId}`, undefined, ADMIN_TOKEN);
    expect(revoked.status).toBe(200);
    expect((await call(first, 'POST', '/memories/list', {}, key)).status).toBe(401);

    // The other process caches key rows for CONTROL_CACHE_TTL_MS: poll for a bounded time past it.
    const deadline = Date.now() + CONTROL_CACHE_TTL_MS * 3;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) {
      status = (await call(second, 'POST', '/memories/list', {}, key)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(401);
  });
});
