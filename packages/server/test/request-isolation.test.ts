import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { closeServices, createServices } from '../src/bootstrap.js';
import { loadConfig, type ServerConfig } from '../src/config.js';
import { defaultHandlers } from '../src/handlers/index.js';
import type { HandlerTable } from '../src/pipeline/handler-types.js';
import type { Services } from '../src/services.js';
import { tenantKey } from '../src/store/tenant-key.js';
import { TEST_KEY } from './harness.js';

interface Started {
  app: Hono;
  services: Services;
  directory: string;
}

const started: Started[] = [];

async function start(overrides: Partial<ServerConfig>, handlers: Partial<HandlerTable>): Promise<Started> {
  const directory = mkdtempSync(path.join(tmpdir(), 'memory-service-isolation-'));
  const config = loadConfig(
    {},
    {
      dataDir: directory,
      bootstrapApiKey: TEST_KEY,
      logLevel: 'silent',
      embeddingModel: 'local/hash-384',
      rateLimitPerMinute: 0,
      ipRateLimitPerMinute: 0,
      ...overrides,
    },
  );
  const services = await createServices(config);
  const server = { app: createApp(services, { ...defaultHandlers, ...handlers }), services, directory };
  started.push(server);
  return server;
}

afterEach(async () => {
  for (const server of started.splice(0)) {
    await closeServices(server.services);
    rmSync(server.directory, { recursive: true, force: true });
  }
});

async function search(app: Hono, tenantId: string) {
  const response = await app.request('/api/sdk/v1/memories/search', {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'anything', scope: { tenantId } }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** Waits (bounded) until a condition holds: requests in flight reach the gate in their own time. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 1_000 && !condition(); tries++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

/** A promise with its resolve function, to hold a handler until the test lets it go. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => open() };
}

describe('request deadlines', () => {
  it('answers REQUEST_DEADLINE_EXCEEDED with Retry-After and never runs the abandoned work', async () => {
    const hold = gate();
    let attempt: Promise<unknown> | undefined;
    const server = await start(
      { requestDeadlineMs: 100 },
      {
        'memories.search': async (_input, context) => {
          const { database } = await context.tenant();
          await hold.opened;
          // Past the deadline by now: this write belongs to work the client was told was abandoned.
          attempt = database.run('INSERT INTO abandoned (note) VALUES (?)', ['should never be written']);
          await attempt;
          return { memories: [], count: 0, trace: {} } as never;
        },
      },
    );
    const { database } = await server.services.resolver.resolve('default', 'slow', new Date());
    await database.run('CREATE TABLE abandoned (note TEXT)');
    const response = await search(server.app, 'slow');
    expect(response.status).toBe(503);
    expect(response.body.error).toMatchObject({ code: 'REQUEST_DEADLINE_EXCEEDED', retryable: true });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    hold.open();
    await waitFor(() => attempt !== undefined);
    await expect(attempt).rejects.toMatchObject({ code: 'REQUEST_DEADLINE_EXCEEDED' });
    expect(await database.all('SELECT note FROM abandoned')).toEqual([]);
  });
});

describe('per-tenant admission', () => {
  it('queues a busy tenant, refuses past its queue with SERVER_BUSY, and lets other tenants through', async () => {
    const hold = gate();
    let entered = 0;
    const server = await start(
      { tenantConcurrency: 1, tenantQueueLimit: 1 },
      {
        'memories.search': async (input) => {
          if (input.scope?.tenantId === 'busy') {
            entered++;
            await hold.opened;
          }
          return { memories: [], count: 0, trace: {} } as never;
        },
      },
    );
    const first = search(server.app, 'busy');
    const second = search(server.app, 'busy');
    await waitFor(() => server.services.tenantGate.load(tenantKey('default', 'busy')).waiting === 1);
    expect(server.services.tenantGate.load(tenantKey('default', 'busy'))).toEqual({ running: 1, waiting: 1 });
    expect(entered).toBe(1);

    const refused = await search(server.app, 'busy');
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'SERVER_BUSY', retryable: true });
    expect(refused.body.error.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.error.details.retryAfterSeconds));

    // Another tenant is not behind the busy one.
    expect((await search(server.app, 'quiet')).status).toBe(200);

    hold.open();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(entered).toBe(2);
  });
});

describe('a tenant’s writes beside its reads', () => {
  it('acknowledges an add while the tenant’s reads fill their lane and queue', async () => {
    const hold = gate();
    const server = await start(
      { tenantConcurrency: 1, tenantQueueLimit: 1 },
      {
        'memories.search': async () => {
          await hold.opened;
          return { memories: [], count: 0, trace: {} } as never;
        },
      },
    );
    const reads = [search(server.app, 'busy'), search(server.app, 'busy')];
    await waitFor(() => server.services.tenantGate.load(tenantKey('default', 'busy')).waiting === 1);

    const added = await server.app.request('/api/sdk/v1/memories/add', {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Written while the reads wait', scope: { tenantId: 'busy' } }),
    });
    expect(added.status).toBe(201);
    expect(server.services.tenantGate.load(tenantKey('default', 'busy'), ['read'])).toEqual({ running: 1, waiting: 1 });

    hold.open();
    for (const read of reads) expect((await read).status).toBe(200);
  });
});

describe('a request that meets a closed database', () => {
  it('answers a retryable SERVER_BUSY instead of a 500 (a server shutting down under running requests)', async () => {
    const server = await start(
      {},
      {
        'memories.search': async (_input, context) => {
          const { database } = await context.tenant();
          await database.close();
          await database.all('SELECT 1');
          return { memories: [], count: 0, trace: {} } as never;
        },
      },
    );
    const response = await search(server.app, 'closing');
    expect(response.status).toBe(503);
    expect(response.body.error).toMatchObject({ code: 'SERVER_BUSY', retryable: true });
    expect(response.headers.get('retry-after')).toBe('1');
  });
});
