import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXACT_MATCHES, lexicalSearch } from '../src/retrieval/lexical.js';
import type { TenantDatabase } from '../src/tenancy/tenant-database.js';
import { importNotes, workspaceTenant } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

const SHARED = { tenantId: null, userId: null, projectId: null };

/**
 * A store past the small-index size where "gateway" and "owns" each match 1,300 memories (their matches together
 * exceed EXACT_MATCHES, so the bounded path runs) and "kaloren" a few, which mention the common words more or less
 * often and are longer or shorter: BM25 tells them apart by term frequency and length.
 */
function notes(): string[] {
  return [
    'Kaloren gateway gateway gateway, and Ada owns the gateway.',
    'Kaloren note.',
    'Kaloren rollout: the gateway team owns it, as the gateway runbook says, and the long tail of the note goes on.',
    'Kaloren owns.',
    ...Array.from({ length: 1_300 }, (_, index) => `Gateway latency report ${index}.`),
    ...Array.from({ length: 1_300 }, (_, index) => `Someone owns the billing ledger ${index}.`),
    ...Array.from({ length: 400 }, (_, index) => `Weekly lunch note ${index}.`),
    ...zorvathNotes(),
  ];
}

/**
 * Sixty memories of a second rare term, half of them also holding a common one, each of its own length (and some
 * saying the rare term twice): more than a top 10 of them, so which of both kinds make it is decided by rank.
 */
function zorvathNotes(): string[] {
  return Array.from({ length: 60 }, (_, index) => {
    const filler = Array.from({ length: 1 + (index % 23) }, (_, word) => `word${word}`).join(' ');
    const rare = index % 7 === 0 ? 'Zorvath zorvath' : 'Zorvath';
    if (index % 2 === 0) return `${rare} ${filler}.`;
    return `${rare} ${index % 3 === 0 ? 'gateway' : 'owns'} ${filler}.`;
  });
}

describe('lexical search ranks by the whole query on a large index', () => {
  let server: TestServer;
  let tenant: TenantDatabase;

  beforeAll(async () => {
    server = await createTestServer();
    tenant = await workspaceTenant(server);
    await importNotes(tenant.database, notes(), (index) => new Date(Date.UTC(2026, 0, 1) + index * 60_000));
  });
  afterAll(async () => {
    await server.close();
  });

  it('gives the memories holding a rare term the BM25 scores and order of the plain OR query', async () => {
    const query = 'kaloren gateway owns';
    const plain = await tenant.database.all<{ rowid: number; rank: number }>(
      `SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH '"kaloren" OR "gateway" OR "owns"'
        ORDER BY rank LIMIT 4`,
    );
    const total = await tenant.database.get<{ matches: number }>(
      `SELECT count(*) AS matches FROM memories_fts WHERE memories_fts MATCH '"gateway" OR "owns"'`,
    );
    expect(Number(total?.matches)).toBeGreaterThan(EXACT_MATCHES);
    const result = await lexicalSearch(tenant, { query, scope: SHARED, limit: 10, recencyFallback: false });
    const top = result.candidates.slice(0, 4);
    expect(top.map((candidate) => candidate.row.seq)).toEqual(plain.map((row) => Number(row.rowid)));
    for (const [index, candidate] of top.entries()) expect(candidate.score).toBeCloseTo(-Number(plain[index]?.rank), 9);
  });

  it('keeps the exact top of a rare term held with and without common terms, each memory at its whole-query rank', async () => {
    const plain = await tenant.database.all<{ rowid: number; rank: number }>(
      `SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH '"zorvath" OR "gateway" OR "owns"'
        ORDER BY rank LIMIT 10`,
    );
    const holdsCommon = await tenant.database.all<{ rowid: number }>(
      `SELECT rowid FROM memories_fts WHERE memories_fts MATCH '"zorvath" AND ("gateway" OR "owns")'`,
    );
    const common = new Set(holdsCommon.map((row) => Number(row.rowid)));
    const kinds = plain.map((row) => common.has(Number(row.rowid)));
    // Memories of both kinds in the top 10.
    expect(kinds).toContain(true);
    expect(kinds).toContain(false);
    const result = await lexicalSearch(tenant, {
      query: 'zorvath gateway owns',
      scope: SHARED,
      limit: 10,
      recencyFallback: false,
    });
    expect(result.candidates.map((candidate) => candidate.row.seq)).toEqual(plain.map((row) => Number(row.rowid)));
    for (const [index, candidate] of result.candidates.entries())
      expect(candidate.score).toBeCloseTo(-Number(plain[index]?.rank), 9);
  });
});
