import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingProviderError } from '../src/embeddings/embedding-errors.js';
import { startServer } from '../src/server.js';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { ADMIN_TOKEN, connectMcp, createTestServer, TEST_KEY, type TestServer } from './harness.js';
import { type Family, parsePrometheusText, sampleValue } from './prometheus-text.js';

const BROKEN_ID = 'test/broken';
let server: TestServer;

beforeAll(async () => {
  const broken = {
    id: BROKEN_ID,
    dimensions: 8,
    local: false,
    costPerMillionTokensUsd: 0,
    model: new MockEmbeddingModelV4({
      doEmbed: async () => {
        throw new EmbeddingProviderError('EMBEDDING_RATE_LIMITED', 'The embedding endpoint answered HTTP 429');
      },
    }),
  };
  server = await createTestServer({}, undefined, { embeddingModels: [broken] });
  await server.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, BROKEN_ID);
});
afterAll(async () => {
  await server.close();
});

async function scrape(authorization: string | null = `Bearer ${ADMIN_TOKEN}`): Promise<Response> {
  return server.app.request('/metrics', { headers: authorization === null ? {} : { authorization } });
}

async function metrics(): Promise<Map<string, Family>> {
  const response = await scrape();
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

describe('GET /metrics', () => {
  it('takes the operator credential, answering the contract envelope otherwise', async () => {
    const cases: Array<[string | null, number, string]> = [
      [null, 401, 'MISSING_API_KEY'],
      [`Bearer ${TEST_KEY}`, 403, 'OPERATOR_CREDENTIAL_REQUIRED'],
      ['Bearer not-the-admin-token', 401, 'INVALID_API_KEY_FORMAT'],
      ['Basic abc', 401, 'INVALID_API_KEY_FORMAT'],
    ];
    for (const [authorization, status, code] of cases) {
      const response = await scrape(authorization);
      expect(response.status, String(authorization)).toBe(status);
      const body = (await response.json()) as { ok: boolean; error: { code: string; status: number } };
      expect(body).toMatchObject({ ok: false, data: null, error: { code, status } });
      expect(response.headers.get('x-request-id')).toBe((body as { meta?: { requestId?: string } }).meta?.requestId);
    }
    expect((await scrape()).status).toBe(200);
  });

  it('counts requests by operation and status, with latency histograms, for HTTP routes and MCP tool calls', async () => {
    const scope = { tenantId: 'counted' };
    await server.post('/memories/add', { content: 'The team deploys on Fridays', scope });
    await server.post('/memories/search', { query: 'deploy', scope });
    await server.post('/memories/search', { query: 'deploy', strategy: 'hybrid', scope });
    expect((await server.call('POST', '/memories/add', { content: '' })).status).toBe(400);
    const client = await connectMcp(server, 'metrics-test');
    await client.callTool({ name: 'search_memories', arguments: { query: 'deploy', tenant_id: 'counted' } });
    await client.close();

    const families = await metrics();
    expect(families.get('memory_requests_total')?.type).toBe('counter');
    expect(families.get('memory_request_duration_seconds')?.type).toBe('histogram');
    const requests = (labels: Record<string, string>) => sampleValue(families, 'memory_requests_total', labels);
    expect(requests({ transport: 'http', operation: 'memories.add', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(requests({ transport: 'http', operation: 'memories.add', status: '400' })).toBe(1);
    expect(requests({ transport: 'http', operation: 'memories.search', status: '200' })).toBe(2);
    expect(requests({ transport: 'mcp', operation: 'memories.search', status: '200' })).toBe(1);
    expect(requests({ transport: 'http', operation: 'mcp', status: '200' })).toBeGreaterThanOrEqual(1);
    const searches = { transport: 'http', operation: 'memories.search', status_class: '2xx' };
    expect(sampleValue(families, 'memory_request_duration_seconds_count', searches)).toBe(2);
    expect(sampleValue(families, 'memory_request_duration_seconds_bucket', { ...searches, le: '+Inf' })).toBe(2);
    expect(sampleValue(families, 'memory_request_duration_seconds_sum', searches)).toBeGreaterThan(0);
    // This scrape's own request is counted once it has answered.
    expect(requests({ transport: 'http', operation: 'metrics', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('reports the lanes, the workers, the inference pool, the index queue and the process', async () => {
    const scope = { tenantId: 'backlog' };
    // A model that always fails leaves its memories' index jobs queued for a retry: a backlog with an age.
    for (const content of ['First of the queue', 'Second of the queue'])
      await server.post('/memories/add', { content, scope, embeddingModel: BROKEN_ID });
    await server.indexed();
    const families = await metrics();
    const value = (name: string, labels: Record<string, string> = {}) => sampleValue(families, name, labels);
    expect(value('memory_index_backlog_jobs')).toBeGreaterThanOrEqual(2);
    expect(value('memory_index_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('memory_index_jobs_processed_total')).toBeGreaterThanOrEqual(2);
    expect(value('memory_open_tenant_databases')).toBeGreaterThanOrEqual(2);
    expect(value('memory_tenant_gate_requests', { state: 'running' })).toBe(0);
    expect(value('memory_tenant_gate_requests', { state: 'waiting' })).toBe(0);
    expect(value('memory_tenant_gate_admitted_total')).toBeGreaterThan(0);
    expect(value('memory_database_workers', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(value('memory_database_requests_total')).toBeGreaterThan(0);
    expect(value('memory_database_busy_seconds_total')).toBeGreaterThan(0);
    expect(value('memory_inference_batches_total', { outcome: 'succeeded' })).toBeGreaterThan(0);
    expect(value('memory_inference_queue_texts')).toBe(0);
    expect(value('memory_model_loads_total', { model: 'local/hash-384' })).toBeGreaterThanOrEqual(0);
    expect(families.get('process_cpu_user_seconds_total')?.type).toBe('counter');
    expect(families.get('nodejs_eventloop_lag_seconds')?.type).toBe('gauge');
  });

  it('never labels by tenant: calls to 50 tenants add no series', async () => {
    const series = (families: Map<string, Family>) =>
      [...families.values()].filter((family) => family.name.startsWith('memory_')).flatMap((family) => family.samples);
    await server.post('/memories/add', { content: 'Tenant zero', scope: { tenantId: 'cardinality-0' } });
    const before = series(await metrics());
    for (let index = 1; index < 50; index++)
      await server.post('/memories/add', { content: `Tenant ${index}`, scope: { tenantId: `cardinality-${index}` } });
    const families = await metrics();
    const after = series(families);
    expect(after.length).toBe(before.length);
    const labelValues = after.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.filter((label) => label.includes('cardinality'))).toEqual([]);
    const adds = { transport: 'http', operation: 'memories.add', status: '201' };
    expect(sampleValue(families, 'memory_requests_total', adds)).toBeGreaterThanOrEqual(50);
    expect(sampleValue(families, 'memory_open_tenant_databases')).toBeGreaterThanOrEqual(50);
  });
});

describe('the private metrics address (MEMORY_METRICS_PORT)', () => {
  it('serves /metrics without a credential there, and only behind the admin token on the API address', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'metrics-address-'));
    const running = await startServer(
      { port: 0, dataDir, adminToken: ADMIN_TOKEN, logLevel: 'silent', embeddingModel: 'local/hash-384' },
      { environment: { MEMORY_METRICS_PORT: '0' } },
    );
    try {
      expect(running.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const open = await fetch(`${running.metricsUrl}/metrics`);
      expect(open.status).toBe(200);
      expect(parsePrometheusText(await open.text()).has('memory_requests_total')).toBe(true);
      expect((await fetch(`${running.metricsUrl}/ready`)).status).toBe(200);
      expect((await fetch(`${running.metricsUrl}/api/sdk/v1/health`)).status).toBe(404);
      expect((await fetch(`${running.url}/metrics`)).status).toBe(401);
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the open-tenant cache in /metrics', () => {
  it('counts hits, opens and the closes that make room, so an operator can size MEMORY_TENANT_CACHE_SIZE', async () => {
    const small = await createTestServer({ tenantCacheSize: 2 });
    try {
      const read = async () => {
        const response = await small.app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        const families = parsePrometheusText(await response.text());
        return {
          hits: sampleValue(families, 'memory_tenant_cache_lookups_total', { outcome: 'hit' }) ?? Number.NaN,
          misses: sampleValue(families, 'memory_tenant_cache_lookups_total', { outcome: 'miss' }) ?? Number.NaN,
          evictions: sampleValue(families, 'memory_tenant_cache_evictions_total') ?? Number.NaN,
        };
      };
      const add = (tenantId: string) =>
        small.call('POST', '/memories/add', { content: `A note of ${tenantId}`, scope: { tenantId } });
      const before = await read();
      // a, b: two opens; a again: a hit; c: an open that closes b (the least recently used); b again: an open.
      for (const tenantId of ['a', 'b', 'a', 'c', 'b']) expect((await add(tenantId)).status).toBe(201);
      const after = await read();
      expect(after.misses - before.misses).toBe(4);
      expect(after.hits - before.hits).toBeGreaterThanOrEqual(1);
      expect(after.evictions - before.evictions).toBe(2);
    } finally {
      await small.close();
    }
  });
});
