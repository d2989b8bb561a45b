import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/store/database.js';
import { importNotes, workspaceDatabase } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

describe('memories embedded only by the backfill', () => {
  let server: TestServer;
  let database: Database;
  beforeAll(async () => {
    server = await createTestServer();
    database = await workspaceDatabase(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('are served by hybrid retrieval once the backfill has embedded them', async () => {
    // Rows written behind the API (an import): no write hook ran, so no model is recorded for the scope yet.
    await importNotes(database, ['The staging cluster runs in Frankfurt', 'Invoices go out on the first of the month']);
    const before = await server.post<{ trace: { semanticFallbackReason: string | null } }>('/context/get', {
      query: 'staging cluster',
      strategy: 'hybrid',
    });
    expect(before.trace.semanticFallbackReason).toBe('embedding_model_not_configured');
    const backfill = await server.post<{ backfill: { remaining: number } }>('/management/embeddings/backfill', {
      action: 'run',
    });
    expect(backfill.backfill.remaining).toBe(0);
    const after = await server.post<{ trace: { semanticStrategyApplied: string; semanticFallbackReason: null } }>(
      '/context/get',
      { query: 'staging cluster', strategy: 'hybrid' },
    );
    expect(after.trace).toMatchObject({ semanticStrategyApplied: 'hybrid', semanticFallbackReason: null });
  });
});
