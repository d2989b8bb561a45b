import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EmbeddingProviderError } from '../src/embeddings/embedding-errors.js';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import { runCapturing } from './cli-run.js';
import { pinClock, rowsBefore, seedMetrics, workspaceDatabase } from './graph-test-helpers.js';
import { connectMcp, createTestServer, TEST_EMBEDDING_MODEL, type TestServer } from './harness.js';

type Bundle = { memories: Array<{ id: string; content: string }>; trace: Record<string, unknown> };
type Search = { memories: Array<{ id: string; content: string }>; trace: Record<string, unknown> };

const servers: TestServer[] = [];
const directories: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

async function start(...args: Parameters<typeof createTestServer>): Promise<TestServer> {
  const server = await createTestServer(...args);
  servers.push(server);
  return server;
}
const context = (server: TestServer, body: Record<string, unknown> = {}) =>
  server.post<Bundle>('/context/get', { query: 'kayak trips', ...body });
const search = (server: TestServer, body: Record<string, unknown> = {}) =>
  server.post<Search>('/memories/search', { query: 'kayak trips', ...body });
const remember = async (server: TestServer, scope?: Record<string, string>) => {
  for (const content of ['Kayak trips leave from the pier at seven', 'The team deploys on Fridays'])
    await server.post('/memories/add', { content, ...(scope === undefined ? {} : { scope }) });
};

/** The trace of a call that named no strategy and was answered with the policy's `strategy`. */
const policyDefault = (strategy: 'lexical' | 'hybrid') => ({
  retrievalPolicyDefaultStrategy: strategy,
  retrievalPolicyAppliedStrategy: strategy,
  retrievalPolicySelection: 'policy_default',
  semanticStrategyRequested: strategy,
  semanticStrategyApplied: strategy,
  semanticFallbackTriggered: false,
  strategy: strategy === 'hybrid' ? 'hybrid_graph' : 'baseline',
});

describe('the default strategy of a call that names none', () => {
  it('is hybrid once the memories have their vectors, with no operator step (HTTP and MCP)', async () => {
    const server = await start();
    // An empty tenant: nothing to be ready with.
    expect((await context(server)).trace).toMatchObject(policyDefault('lexical'));
    await remember(server);
    await server.indexed();
    const bundle = await context(server);
    expect(bundle.trace).toMatchObject(policyDefault('hybrid'));
    expect(bundle.memories[0]?.content).toBe('Kayak trips leave from the pier at seven');
    expect((await search(server)).trace).toMatchObject({ requestedStrategy: 'hybrid', appliedStrategy: 'hybrid' });
    // The promotion is the policy's, as graph/rollout reports it.
    const rollout = (await server.call('GET', '/graph/rollout')).body.data;
    expect(rollout?.retrievalPolicy).toMatchObject({ defaultStrategy: 'hybrid', updatedBy: 'autopilot' });
    expect(rollout?.rolloutPlan.autopilot).toMatchObject({ applied: false, reason: 'already_hybrid_default' });
    // MCP tools get the same default.
    const client = await connectMcp(server, 'default-strategy');
    try {
      const result = (await client.callTool({ name: 'get_context', arguments: { query: 'kayak trips' } })) as {
        structuredContent: { data: Bundle };
      };
      expect(result.structuredContent.data.trace).toMatchObject(policyDefault('hybrid'));
    } finally {
      await client.close();
    }
    // A call naming its strategy still gets it.
    expect((await context(server, { strategy: 'lexical' })).trace).toMatchObject({
      retrievalPolicyDefaultStrategy: 'hybrid',
      retrievalPolicyAppliedStrategy: 'lexical',
      retrievalPolicySelection: 'request',
    });
  });

  it('stays lexical while the memories wait for their vectors, and in a tenant of its own', async () => {
    const server = await start();
    server.services.indexing.pause();
    await remember(server, { tenantId: 'waiting' });
    expect((await context(server, { scope: { tenantId: 'waiting' } })).trace).toMatchObject(policyDefault('lexical'));
    server.services.indexing.resume();
    await server.indexed();
    expect((await context(server, { scope: { tenantId: 'waiting' } })).trace).toMatchObject(policyDefault('hybrid'));
    // The policy is per tenant: the workspace database has no memories and stays lexical.
    expect((await context(server)).trace).toMatchObject(policyDefault('lexical'));
  });

  it('is lexical, without errors or fallbacks, on a server whose embedding model is unavailable', async () => {
    const server = await start({ embeddingModel: 'ghost/missing' });
    await remember(server);
    await server.indexed();
    const bundle = await context(server);
    expect(bundle.trace).toMatchObject(policyDefault('lexical'));
    expect(bundle.memories[0]?.content).toBe('Kayak trips leave from the pier at seven');
    expect((await search(server)).trace).toMatchObject({
      requestedStrategy: 'lexical',
      appliedStrategy: 'lexical',
      semanticFallbackTriggered: false,
    });
  });

  it('stays lexical with MEMORY_GRAPH_AUTOPILOT off', async () => {
    const server = await start({ graphAutopilot: false });
    await remember(server);
    await server.indexed();
    expect((await context(server)).trace).toMatchObject(policyDefault('lexical'));
  });
});

describe('a hybrid default whose model fails', () => {
  let failing = false;
  const flaky = {
    id: 'test/flaky',
    dimensions: 32,
    local: false,
    costPerMillionTokensUsd: 0,
    model: new MockEmbeddingModelV4({
      doEmbed: async ({ values }) => {
        if (failing) throw new EmbeddingProviderError('EMBEDDING_PROVIDER_TIMEOUT', 'No answer in time');
        return { embeddings: values.map((value) => Array.from(hashEmbedding(value, 32))), warnings: [] };
      },
    }),
  };

  it('is not promoted while hybrid calls fail, and falls back per call once it is', async () => {
    const server = await start({ embeddingModel: 'test/flaky' }, undefined, { embeddingModels: [flaky] });
    const now = new Date('2026-03-01T12:00:00.000Z');
    pinClock(server, now);
    await remember(server);
    await server.indexed();
    // Hybrid calls that the model failed (in the last 24 h) keep the tenant lexical.
    failing = true;
    for (let call = 0; call < 3; call += 1)
      expect((await context(server, { strategy: 'hybrid' })).trace.semanticFallbackReason).toBe('embedding_failed');
    failing = false;
    await (await workspaceDatabase(server)).logs.flush();
    expect((await context(server)).trace).toMatchObject(policyDefault('lexical'));
    // A day later the failures are out of the window: promoted.
    pinClock(server, new Date(now.getTime() + 25 * 3_600_000));
    expect((await context(server)).trace).toMatchObject(policyDefault('hybrid'));
    // The model fails again: each call answers lexically and says why; nothing errors, the policy stays hybrid.
    failing = true;
    // A question the model has not embedded yet: one asked before reuses its vector and needs no model call.
    const bundle = await context(server, { query: 'kayak pier' });
    failing = false;
    expect(bundle.trace).toMatchObject({
      retrievalPolicyDefaultStrategy: 'hybrid',
      retrievalPolicySelection: 'policy_default',
      retrievalPolicyAppliedStrategy: 'lexical',
      semanticStrategyRequested: 'hybrid',
      semanticStrategyApplied: 'lexical',
      semanticFallbackTriggered: true,
      semanticFallbackReason: 'embedding_failed',
    });
    expect(bundle.memories[0]?.content).toBe('Kayak trips leave from the pier at seven');
  });
});

describe('an operator who sets the policy (memory-service policy set)', () => {
  it('keeps it: the autopilot promotes neither on readiness nor on ready canary windows, until auto', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-default-strategy-'));
    directories.push(dataDir);
    const env = { MEMORY_DATA_DIR: dataDir, MEMORY_EMBEDDING_MODEL: TEST_EMBEDDING_MODEL };
    const set = await runCapturing(['policy', 'set', 'lexical'], env);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toContain('is now lexical');

    const server = await start({}, dataDir);
    const now = new Date('2026-03-01T12:00:00.000Z');
    pinClock(server, now);
    await remember(server);
    await server.indexed();
    expect((await context(server)).trace).toMatchObject(policyDefault('lexical'));
    // Two ready canary windows would promote a policy nobody set.
    const database = await workspaceDatabase(server);
    await seedMetrics(database, rowsBefore(new Date(now.getTime() - 24 * 3_600_000), 40));
    await seedMetrics(database, rowsBefore(now, 40));
    expect((await server.call('PATCH', '/graph/rollout', { mode: 'canary' })).status).toBe(200);
    const rollout = (await server.call('GET', '/graph/rollout')).body.data;
    expect(rollout?.rolloutPlan).toMatchObject({
      readyForDefaultOn: true,
      autopilot: { enabled: true, applied: false, reason: 'operator_policy' },
    });
    expect(rollout?.retrievalPolicy).toMatchObject({ defaultStrategy: 'lexical', updatedBy: 'cli' });
    expect((await context(server)).trace).toMatchObject({ retrievalPolicyDefaultStrategy: 'lexical' });

    const shown = await runCapturing(['policy', 'show'], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('default:    lexical');
    expect(shown.stdout).toContain('an operator set this policy: it is kept');
    expect(shown.stdout).toContain('readiness:  ready for hybrid');

    expect((await runCapturing(['policy', 'set', 'auto'], env)).code).toBe(0);
    expect((await context(server)).trace).toMatchObject(policyDefault('hybrid'));
    expect((await server.call('GET', '/graph/rollout')).body.data?.retrievalPolicy).toMatchObject({
      defaultStrategy: 'hybrid',
      updatedBy: 'autopilot',
    });
    expect((await runCapturing(['policy', 'set', 'lexical'], env)).code).toBe(0);
    expect((await context(server)).trace).toMatchObject(policyDefault('lexical'));
  });

  it('names the tenant, refuses an unknown one or strategy, and shows why a tenant is not ready', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-default-strategy-'));
    directories.push(dataDir);
    const env = { MEMORY_DATA_DIR: dataDir, MEMORY_EMBEDDING_MODEL: 'ghost/missing' };
    const unknown = await runCapturing(['policy', 'set', 'hybrid', '--tenant', 'nobody'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no tenant 'nobody'");
    const wrong = await runCapturing(['policy', 'set', 'semantic'], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('lexical, hybrid or auto');

    const server = await start({ embeddingModel: 'ghost/missing' }, dataDir);
    await remember(server, { tenantId: 'acme' });
    await server.indexed();
    const shown = await runCapturing(['policy', 'show', '--tenant', 'acme'], env);
    expect(shown.stdout).toContain('policy of tenant acme');
    expect(shown.stdout).toContain('readiness:  not ready (EMBEDDING_MODEL_UNAVAILABLE)');
    // An operator may still choose hybrid: each call then falls back to lexical and says why.
    expect((await runCapturing(['policy', 'set', 'hybrid', '--tenant', 'acme'], env)).code).toBe(0);
    expect((await context(server, { scope: { tenantId: 'acme' } })).trace).toMatchObject({
      retrievalPolicyDefaultStrategy: 'hybrid',
      retrievalPolicyAppliedStrategy: 'lexical',
      semanticFallbackTriggered: true,
      semanticFallbackReason: 'embedding_model_unavailable',
    });
  });
});
