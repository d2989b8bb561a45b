import { RolloutDataSchema } from '@memory-service/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { pinClock, rowsBefore, seedMetrics, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const HOUR = 3_600_000;
let server: TestServer;
afterEach(async () => {
  await server.close();
});

async function start(overrides: Parameters<typeof createTestServer>[0] = {}): Promise<Database> {
  server = await createTestServer(overrides);
  pinClock(server, NOW);
  return workspaceDatabase(server);
}
const mode = async (query = '') => (await server.call('GET', `/graph/rollout${query}`)).body.data?.rollout.mode;
const set = (method: 'POST' | 'PATCH', body: Record<string, unknown>) => server.call(method, '/graph/rollout', body);

describe('graph rollout state table', () => {
  it('moves to off or shadow from any mode, and to canary only through the gate', async () => {
    const database = await start();
    expect(await mode()).toBe('off');
    // off -> shadow -> off (POST and PATCH alike)
    expect((await set('POST', { mode: 'shadow' })).body.data?.rollout).toMatchObject({
      mode: 'shadow',
      updatedAt: NOW.toISOString(),
    });
    expect((await set('PATCH', { mode: 'off' })).body.data?.rollout.mode).toBe('off');
    // off -> canary with no data: 409, unchanged
    const blocked = await set('POST', { mode: 'canary' });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error).toMatchObject({
      code: 'CANARY_ROLLOUT_BLOCKED',
      type: 'validation_error',
      details: {
        reasonCodes: ['HYBRID_SAMPLES_BELOW_MINIMUM', 'SHADOW_EXECUTIONS_BELOW_MINIMUM'],
        qualityStatus: 'insufficient_data',
        windowHours: 24,
      },
    });
    expect(await mode()).toBe('off');
    // shadow -> canary while the window is unhealthy: 409 blocked, unchanged
    await set('PATCH', { mode: 'shadow' });
    await seedMetrics(
      database,
      rowsBefore(NOW, 40, (index) => ({ rolloutMode: 'shadow', semanticFallback: index < 8 })),
    );
    const unhealthy = await set('PATCH', { mode: 'canary' });
    expect(unhealthy.status).toBe(409);
    expect(unhealthy.body.error?.details).toEqual({
      reasonCodes: ['FALLBACK_RATE_ABOVE_MAXIMUM'],
      qualityStatus: 'blocked',
      windowHours: 24,
    });
    expect(await mode()).toBe('shadow');
    // shadow -> canary once the window passes (the unhealthy rows age out of it)
    pinClock(server, new Date(NOW.getTime() + 25 * HOUR));
    await seedMetrics(
      database,
      rowsBefore(server.services.now(), 40, () => ({ rolloutMode: 'shadow' })),
    );
    const promoted = await set('POST', { mode: 'canary' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({
      rollout: { mode: 'canary' },
      qualityGate: { status: 'pass', passed: true },
    });
    // canary -> canary again, then canary -> shadow -> off
    expect((await set('PATCH', { mode: 'canary' })).status).toBe(200);
    expect((await set('POST', { mode: 'shadow' })).body.data?.rollout.mode).toBe('shadow');
    expect((await set('PATCH', { mode: 'off' })).body.data?.rollout.mode).toBe('off');
  });

  it('keeps canary unchanged when the gate blocks a repeated canary request', async () => {
    const database = await start();
    await seedMetrics(database, rowsBefore(NOW, 40));
    expect((await set('POST', { mode: 'canary' })).status).toBe(200);
    await seedMetrics(
      database,
      rowsBefore(NOW, 10, () => ({ graphError: true })),
    );
    const again = await set('POST', { mode: 'canary' });
    expect(again.status).toBe(409);
    expect(again.body.error?.details?.reasonCodes).toEqual(['GRAPH_ERROR_FALLBACK_RATE_ABOVE_MAXIMUM']);
    expect(await mode()).toBe('canary');
  });

  it('rejects an invalid mode with INVALID_REQUEST', async () => {
    await start();
    const response = await set('POST', { mode: 'everywhere' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'mode' } });
  });

  it('lets a project override the tenant mode and measures that project only', async () => {
    const database = await start();
    await set('POST', { mode: 'shadow', scope: { projectId: 'acme/web' } });
    expect(await mode('?projectId=acme%2Fweb')).toBe('shadow');
    expect(await mode('?projectId=acme%2Fapi')).toBe('off');
    expect(await mode()).toBe('off');
    await seedMetrics(
      database,
      rowsBefore(NOW, 40, () => ({ projectId: 'acme/web' })),
    );
    // A project's gate reads that project's calls; the tenant's reads every call.
    expect((await set('POST', { mode: 'canary', scope: { projectId: 'acme/api' } })).status).toBe(409);
    expect((await set('POST', { mode: 'canary', scope: { projectId: 'acme/web' } })).status).toBe(200);
    expect(await mode('?projectId=acme%2Fapi')).toBe('off');
    const bundle = await server.post<{ trace: { rolloutMode: string } }>('/context/get', {
      query: 'x',
      scope: { projectId: 'acme/web' },
    });
    expect(bundle.trace.rolloutMode).toBe('canary');
  });
});

describe('shadow metrics and the retrieval policy', () => {
  it('records a metrics row on every context call, whatever the mode', async () => {
    await start();
    await server.post('/context/get', { query: 'anything' });
    await server.post('/graph/rollout', { mode: 'shadow' });
    await server.post('/context/get', { query: 'anything', strategy: 'hybrid' });
    await server.post('/graph/trace', { query: 'anything' });
    const data = (await server.call('GET', '/graph/rollout')).body.data;
    expect(data?.shadowMetrics).toMatchObject({
      totalRequests: 2,
      hybridSamples: 1,
      shadowExecutions: 1,
      fallbackRate: 1,
    });
  });

  it('promotes the default to hybrid after two consecutive ready windows (autopilot on GET)', async () => {
    const database = await start();
    await seedMetrics(database, rowsBefore(new Date(NOW.getTime() - 24 * HOUR), 40));
    await seedMetrics(database, rowsBefore(NOW, 40));
    await set('POST', { mode: 'canary' });
    // POST reports the plan but never applies the autopilot.
    const afterPost = (await server.call('GET', '/graph/rollout?projectId=acme')).body.data;
    expect(afterPost?.rolloutPlan.autopilot).toEqual({ enabled: true, applied: false, reason: 'tenant_scope_only' });
    const data = (await server.call('GET', '/graph/rollout')).body.data;
    expect(RolloutDataSchema.safeParse(data).success).toBe(true);
    expect(data?.rolloutPlan).toMatchObject({
      recommendedMode: 'canary',
      defaultBehaviorDecision: 'hybrid_default',
      readyForDefaultOn: true,
      blockerCodes: [],
      autopilot: { enabled: true, applied: true, reason: 'ready_windows_reached' },
    });
    expect(data?.retrievalPolicy).toEqual({
      defaultStrategy: 'hybrid',
      readyWindowStreak: 2,
      lastDecision: 'promote_hybrid',
      lastEvaluatedAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      updatedBy: 'autopilot',
    });
    const bundle = await server.post<{ trace: Record<string, unknown> }>('/context/get', { query: 'anything' });
    expect(bundle.trace).toMatchObject({
      retrievalPolicyDefaultStrategy: 'hybrid',
      retrievalPolicySelection: 'policy_default',
      semanticStrategyRequested: 'hybrid',
    });
    const again = (await server.call('GET', '/graph/rollout')).body.data;
    expect(again?.rolloutPlan.autopilot).toEqual({ enabled: true, applied: false, reason: 'already_hybrid_default' });
  });

  it('does not promote after one ready window, nor when the earlier window had no canary', async () => {
    const database = await start();
    await seedMetrics(
      database,
      rowsBefore(new Date(NOW.getTime() - 24 * HOUR), 40, () => ({ rolloutMode: 'shadow' })),
    );
    await seedMetrics(database, rowsBefore(NOW, 40));
    await set('POST', { mode: 'canary' });
    const data = (await server.call('GET', '/graph/rollout')).body.data;
    expect(data?.rolloutPlan).toMatchObject({
      defaultBehaviorDecision: 'keep_lexical',
      readyForDefaultOn: false,
      blockerCodes: ['READY_WINDOWS_BELOW_REQUIRED'],
      autopilot: { applied: false, reason: 'not_ready_for_default_on' },
    });
    expect(data?.retrievalPolicy).toMatchObject({
      defaultStrategy: 'lexical',
      readyWindowStreak: 1,
      lastDecision: 'keep_lexical',
    });
  });

  it('reports promote_hybrid but keeps lexical when MEMORY_GRAPH_AUTOPILOT is off', async () => {
    const database = await start({ graphAutopilot: false });
    await seedMetrics(database, rowsBefore(new Date(NOW.getTime() - 24 * HOUR), 40));
    await seedMetrics(database, rowsBefore(NOW, 40));
    await set('POST', { mode: 'canary' });
    const data = (await server.call('GET', '/graph/rollout')).body.data;
    expect(data?.rolloutPlan).toMatchObject({
      defaultBehaviorDecision: 'promote_hybrid',
      readyForDefaultOn: true,
      autopilot: { enabled: false, applied: false, reason: 'autopilot_disabled' },
    });
    expect(data?.retrievalPolicy.defaultStrategy).toBe('lexical');
  });
});
