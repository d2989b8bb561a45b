import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planConsolidation } from '../src/consolidation/plan-consolidation.js';
import { applyPlanStatements, consolidationCandidates } from '../src/store/consolidation-runs.js';
import type { Database } from '../src/store/database.js';
import { supersedeAtWriteStatements } from '../src/store/write-supersede.js';
import { importNotes, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

const SHARED = { tenantId: null, userId: null, projectId: null };

describe('a consolidation run beside the indexer superseding at write time', () => {
  let server: TestServer;
  let database: Database;
  beforeAll(async () => {
    server = await createTestServer();
    database = await workspaceDatabase(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('leaves a memory superseded between its plan and its apply as it is, and counts the contradiction once', async () => {
    // Written through the store, so no index job runs: the test plays the indexer's part itself.
    await importNotes(
      database,
      ['Deploys go out on Tuesdays', 'Deploys go out on Wednesdays'],
      (index) => new Date(Date.UTC(2026, 0, 1 + index)),
    );
    const ids = await database.all<{ id: string }>('SELECT id FROM memories ORDER BY created_at');
    const [older, newer] = ids as [{ id: string }, { id: string }];
    // The run plans from a read in which both statements are live...
    const selection = { scope: SHARED, types: undefined, includeGlobal: true, globalOnly: false };
    const plan = planConsolidation(await consolidationCandidates(database, selection), []);
    expect(plan.groups.flatMap((group) => group.supersededIds)).toContain(older.id);
    // ...then the indexer's write-time verdict lands first (a later timestamp than any the run uses)...
    await database.transaction(
      supersedeAtWriteStatements([{ olderId: older.id, newerId: newer.id }], '2099-01-01T00:00:00.000Z'),
    );
    // ...and the run applies its plan.
    await database.transaction(applyPlanStatements(plan, 'run-beside-write', new Date().toISOString()));

    const events = await database.all<{ detail: string }>(
      "SELECT detail FROM lifecycle_events WHERE kind = 'memory.superseded' AND subject_id = ?",
      [older.id],
    );
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]?.detail ?? '{}')).toMatchObject({ decidedAt: 'write' });
    const row = await database.get<{ superseded_by: string; updated_at: string }>(
      'SELECT superseded_by, updated_at FROM memories WHERE id = ?',
      [older.id],
    );
    expect(row).toEqual({ superseded_by: newer.id, updated_at: '2099-01-01T00:00:00.000Z' });
  });
});
