import { ConsolidateDataSchema } from '@memory-service/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { pinClock, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

type Run = {
  runId: string;
  message: string;
  run: Record<string, unknown>;
  winnerMemoryIds: string[];
  supersededMemoryIds: string[];
};
type Listed = { id: string; supersededBy: string | null };

let server: TestServer;
let database: Database;
let clock = new Date('2026-03-01T08:00:00.000Z').getTime();
type Name =
  | 'staging'
  | 'pnpmOld'
  | 'tabs'
  | 'british'
  | 'production'
  | 'pnpmNew'
  | 'spaces'
  | 'american'
  | 'canaryNote'
  | 'euWest'
  | 'laptop'
  | 'usEast';
const ids = {} as Record<Name, string>;

const add = async (name: Name, body: Record<string, unknown>) => {
  clock += 60_000;
  pinClock(server, new Date(clock));
  ids[name] = (await server.post<{ id: string }>('/memories/add', body)).id;
};
const consolidate = (body: Record<string, unknown> = {}) => server.post<Run>('/memories/consolidate', body);
const sorted = (values: string[]) => [...values].sort();
const listed = async (scope: Record<string, string> = {}) =>
  new Map(
    (await server.post<{ memories: Listed[] }>('/memories/list', { limit: 100, scope })).memories.map((memory) => [
      memory.id,
      memory.supersededBy,
    ]),
  );

beforeAll(async () => {
  server = await createTestServer();
  database = await workspaceDatabase(server);
  await add('staging', { content: 'Deploy target: staging', type: 'decision' });
  await add('pnpmOld', { content: 'Use pnpm for installs' });
  await add('tabs', { content: 'Indentation: tabs, width 2', type: 'fact', category: 'editor' });
  await add('british', { content: 'Language: British English', type: 'rule' });
  await add('production', { content: 'Deploy target: production', type: 'decision' });
  // Adds refuse duplicates, but an edit can still make two memories equal (and tenants keep those stored before):
  // consolidation merges them.
  await add('pnpmNew', { content: 'Use pnpm for every install' });
  await server.post('/memories/edit', { id: ids.pnpmNew, content: 'use  PNPM for installs' });
  await add('spaces', { content: 'Indentation: spaces, width 4', type: 'fact', category: 'Editor' });
  await add('american', { content: 'Language: American English', type: 'rule' });
  await add('canaryNote', { content: 'Deploy target: canary', type: 'note' });
  await add('euWest', { content: 'Deploy target: eu-west', type: 'decision', scope: { projectId: 'acme' } });
  await add('laptop', { content: 'Deploy target: laptop', type: 'decision', scope: { userId: 'zed' } });
});
afterAll(async () => {
  await server.close();
});

describe('memories/consolidate', () => {
  it('plans without changing anything on a dry run and records the run', async () => {
    const dry = await consolidate({ dryRun: true });
    expect(ConsolidateDataSchema.safeParse(dry).success).toBe(true);
    expect(dry.run).toMatchObject({
      inputCount: 9,
      mergedCount: 1,
      supersededCount: 3,
      conflictedCount: 3,
      model: 'deterministic',
      metadata: { dryRun: true, method: 'deterministic', groups: 4 },
    });
    expect(sorted(dry.winnerMemoryIds)).toEqual(sorted([ids.production, ids.pnpmNew, ids.spaces, ids.american]));
    expect(sorted(dry.supersededMemoryIds)).toEqual(sorted([ids.staging, ids.pnpmOld, ids.tabs, ids.british]));
    expect(dry.message).toBe(
      'Dry run: 4 of 9 memories would be consolidated (1 merged, 3 superseded); nothing was changed',
    );
    expect([...(await listed()).values()].every((supersededBy) => supersededBy === null)).toBe(true);
    expect((await listed()).size).toBe(9);
    const stored = await database.get<{ metadata: string }>('SELECT metadata FROM consolidation_runs WHERE id = ?', [
      dry.runId,
    ]);
    expect(JSON.parse(stored?.metadata ?? '{}')).toMatchObject({ dryRun: true });
  });

  it('keeps the newest statement of a subject, supersedes older ones and merges duplicates', async () => {
    const result = await consolidate({ model: 'gpt-5-mini' });
    expect(result.run).toMatchObject({
      inputCount: 9,
      mergedCount: 1,
      supersededCount: 3,
      conflictedCount: 3,
      model: 'gpt-5-mini',
    });
    expect(result.run.scope).toEqual({ tenantId: null, userId: null, projectId: null });
    const memories = await listed();
    expect(memories.get(ids.staging)).toBe(ids.production);
    expect(memories.get(ids.tabs)).toBe(ids.spaces);
    expect(memories.get(ids.british)).toBe(ids.american);
    expect(memories.has(ids.pnpmOld)).toBe(false);
    expect(memories.get(ids.production)).toBeNull();
    expect(memories.get(ids.canaryNote)).toBeNull();
    const merged = await database.get<{ deleted_at: string | null; superseded_by: string }>(
      'SELECT deleted_at, superseded_by FROM memories WHERE id = ?',
      [ids.pnpmOld],
    );
    expect(merged).toEqual({ deleted_at: new Date(clock).toISOString(), superseded_by: ids.pnpmNew });
    const edges = await database.all<{
      source_memory_id: string;
      target_memory_id: string;
      edge_type: string;
      confidence: number;
    }>(
      `SELECT source_memory_id, target_memory_id, edge_type, confidence FROM graph_edges WHERE origin = 'consolidation'`,
    );
    const described = edges.map(
      (edge) => `${edge.source_memory_id} ${edge.edge_type} ${edge.target_memory_id} ${edge.confidence}`,
    );
    expect(sorted(described)).toEqual(
      sorted([
        `${ids.production} supersedes ${ids.staging} 1`,
        `${ids.production} contradicts ${ids.staging} 0.9`,
        `${ids.spaces} supersedes ${ids.tabs} 1`,
        `${ids.spaces} contradicts ${ids.tabs} 0.6`,
        `${ids.american} supersedes ${ids.british} 1`,
        `${ids.american} contradicts ${ids.british} 0.9`,
        `${ids.pnpmNew} supersedes ${ids.pnpmOld} 1`,
      ]),
    );
    const events = await database.all<{ kind: string; total: number }>(
      `SELECT kind, COUNT(*) AS total FROM lifecycle_events WHERE kind IN ('memory.superseded', 'memory.merged', 'consolidation.run') GROUP BY kind ORDER BY kind`,
    );
    expect(events).toEqual([
      { kind: 'consolidation.run', total: 2 },
      { kind: 'memory.merged', total: 1 },
      { kind: 'memory.superseded', total: 3 },
    ]);
    const runEvent = await database.get<{ detail: string }>(
      "SELECT detail FROM lifecycle_events WHERE kind = 'consolidation.run' AND subject_id = ?",
      [result.runId],
    );
    expect(JSON.parse(runEvent?.detail ?? '{}')).toEqual({
      inputCount: 9,
      mergedCount: 1,
      supersededCount: 3,
      conflictedCount: 3,
      dryRun: false,
    });
  });

  it('never serves a superseded memory as current truth', async () => {
    const bundle = await server.post<{ rules: Array<{ id: string }>; memories: Array<{ id: string }> }>(
      '/context/get',
      {
        query: 'deploy target staging language',
      },
    );
    expect(bundle.rules.map((rule) => rule.id)).toEqual([ids.american]);
    expect(bundle.memories.map((memory) => memory.id)).not.toContain(ids.staging);
    expect(bundle.memories.map((memory) => memory.id)).toContain(ids.production);
  });

  it('is idempotent: a second run finds nothing left to do', async () => {
    const again = await consolidate();
    expect(again.run).toMatchObject({ inputCount: 5, mergedCount: 0, supersededCount: 0, conflictedCount: 0 });
    expect(again.winnerMemoryIds).toEqual([]);
  });

  it('scopes runs by project (includeGlobal, globalOnly), type and user', async () => {
    await add('usEast', { content: 'Deploy target: us-east', type: 'decision', scope: { projectId: 'acme' } });
    expect((await consolidate({ scope: { projectId: 'acme' }, dryRun: true })).run.inputCount).toBe(7);
    expect(
      (await consolidate({ scope: { projectId: 'acme' }, includeGlobal: false, dryRun: true })).run.inputCount,
    ).toBe(2);
    expect((await consolidate({ scope: { projectId: 'acme' }, globalOnly: true, dryRun: true })).run.inputCount).toBe(
      5,
    );
    expect(
      (await consolidate({ scope: { projectId: 'acme' }, types: ['decision'], dryRun: true })).run.inputCount,
    ).toBe(3);
    const project = await consolidate({ scope: { projectId: 'acme' } });
    expect(project.winnerMemoryIds).toEqual([ids.usEast]);
    expect(project.supersededMemoryIds).toEqual([ids.euWest]);
    expect((await listed({ projectId: 'acme' })).get(ids.production)).toBeNull();
    expect((await consolidate({ scope: { userId: 'zed' } })).run).toMatchObject({ inputCount: 1, userId: 'zed' });
    expect((await listed({ userId: 'zed' })).get(ids.laptop)).toBeNull();
  });

  it('validates model and answers 403 when the flag is off', async () => {
    const invalid = await server.call('POST', '/memories/consolidate', { model: '' });
    expect(invalid.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'model' } });
    const off = await createTestServer({ flags: { MEMORY_CONSOLIDATION_ENABLED: false } as never });
    const response = await off.call('POST', '/memories/consolidate', {});
    expect(response.status).toBe(403);
    expect(response.body.error?.code).toBe('MEMORY_CONSOLIDATION_DISABLED');
    await off.close();
  });
});
