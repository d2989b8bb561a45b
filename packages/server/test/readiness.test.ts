import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { createTestServer, type TestServer } from './harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ready(target: TestServer): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const response = await target.app.request('/ready');
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

describe('GET /ready', () => {
  it('answers 200 with its checks on a healthy server, no credential needed', async () => {
    server = await createTestServer();
    // A fresh process starts its inference thread on the first probe: `loading` until the model answers.
    const target = server;
    await vi.waitFor(async () => expect((await ready(target)).status).toBe(200), { timeout: 20_000, interval: 200 });
    const answer = await ready(server);
    expect(answer.body).toEqual({
      ready: true,
      checks: { controlDatabase: 'ok', databaseWorkers: 'ok', encoder: 'ok' },
    });
    // `/health` is unchanged: the contract's cheap liveness envelope.
    const health = await server.call('GET', '/health', undefined, { key: null });
    expect(health.status).toBe(200);
    expect(health.body.data).toMatchObject({ status: 'ok' });
  });

  it('answers 503 naming the check that failed when the control database is closed, with no path', async () => {
    server = await createTestServer();
    const target = server;
    await vi.waitFor(async () => expect((await ready(target)).status).toBe(200), { timeout: 20_000, interval: 200 });
    await server.services.control.database.close();
    const answer = await ready(server);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      ready: false,
      checks: { controlDatabase: 'failed', databaseWorkers: 'ok', encoder: 'ok' },
    });
    expect(answer.text).not.toContain(server.dataDir);
  });

  it('is not ready until a local encoder has loaded, and starts the load itself', async () => {
    const url = new URL('./fixtures/slow-load-encoder.mjs', import.meta.url);
    url.search = new URLSearchParams({ loadMs: '2500', instance: randomUUID() }).toString();
    const model = { id: 'test/slow-ready', dimensions: 8, local: true as const, costPerMillionTokensUsd: 0 };
    server = await createTestServer({ embeddingModel: model.id }, undefined, {
      embeddingModels: [{ ...model, workerModule: url.href }],
    });
    await server.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, model.id);
    const first = await ready(server);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ ready: false, checks: { encoder: 'loading' } });
    const target = server;
    await vi.waitFor(async () => expect((await ready(target)).status).toBe(200), { timeout: 20_000, interval: 200 });
  });

  it('does not require an encoder when the default model is a remote one', async () => {
    const remote = {
      id: 'test/remote',
      dimensions: 8,
      local: false,
      costPerMillionTokensUsd: 0,
      model: {
        specificationVersion: 'v4',
        provider: 'test',
        modelId: 'remote',
        maxEmbeddingsPerCall: 8,
        supportsParallelCalls: true,
        doEmbed: async () => {
          throw new Error('never called by readiness');
        },
      },
    } as const;
    server = await createTestServer({ embeddingModel: remote.id }, undefined, { embeddingModels: [remote] });
    const answer = await ready(server);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ checks: { encoder: 'not_required' } });
  });
});
