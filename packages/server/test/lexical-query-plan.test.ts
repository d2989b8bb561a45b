import type { InArgs } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lexicalSearch } from '../src/retrieval/lexical.js';
import type { TenantDatabase } from '../src/tenancy/tenant-database.js';
import { importNotes, workspaceTenant } from './graph-test-helpers.js';
import { createTestServer, type TestServer } from './harness.js';

const SHARED = { tenantId: null, userId: null, projectId: null };

/**
 * Past the small-index threshold, with two broad terms ("owns", "gateway": 2,540 matches each, each more than one
 * exact ranking takes, both together in the 40 oldest only) and a rare one ("kaloren").
 */
function notes(): string[] {
  return [
    ...Array.from({ length: 40 }, (_, index) => `Ada owns the gateway rollout, step ${index}.`),
    ...Array.from({ length: 2_500 }, (_, index) => `Gateway latency report ${index}.`),
    ...Array.from({ length: 2_500 }, (_, index) => `Someone owns the billing ledger ${index}.`),
    ...Array.from({ length: 1_500 }, (_, index) => `Weekly lunch note ${index}.`),
    'Kaloren rollout note one.',
  ];
}

interface Statement {
  sql: string;
  args: InArgs;
}

/**
 * The plan of the statements a large tenant's lexical search runs: what keeps its cost bounded as a tenant grows to a
 * million memories, where a broad term matches hundreds of thousands. FTS5 shows its choices in the plan's virtual
 * table line: `INDEX <n>:<idxStr>`, where n's bit 32 means FTS5 itself yields rows in rank order (a top-n heap, no
 * sort of every match), bits 64 + 128 that it walks rowids newest first, and `>` in idxStr that it starts at a rowid
 * bound instead of reading the term's whole posting list.
 */
describe('the query plan of lexical search on a large index', () => {
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

  /** The full-text statements one search runs, each with its plan's lines. */
  async function plansOf(query: string, limit = 20): Promise<Array<Statement & { plan: string[] }>> {
    const statements: Statement[] = [];
    const all = tenant.database.all.bind(tenant.database);
    const spy = vi.spyOn(tenant.database, 'all').mockImplementation((sql: string, args: InArgs = []) => {
      if (sql.includes('memories_fts MATCH')) statements.push({ sql, args });
      return all(sql, args);
    });
    try {
      await lexicalSearch(tenant, { query, scope: SHARED, limit, recencyFallback: false });
    } finally {
      spy.mockRestore();
    }
    return Promise.all(
      statements.map(async (statement) => {
        const rows = await tenant.database.all<{ detail: string }>(
          `EXPLAIN QUERY PLAN ${statement.sql}`,
          statement.args,
        );
        return { ...statement, plan: rows.map((row) => row.detail) };
      }),
    );
  }

  const ftsLine = (plan: string[]) => plan.find((line) => line.includes('memories_fts VIRTUAL TABLE')) ?? '';
  const ftsIndex = (plan: string[]) => {
    const match = /VIRTUAL TABLE INDEX (\d+):(\S*)/.exec(ftsLine(plan));
    return { flags: Number(match?.[1] ?? 0), constraints: match?.[2] ?? '' };
  };

  it('ranks broad terms from a rowid bound found by walking the newest matches, never every match', async () => {
    // 60: more than the 40 memories with both terms, so the newest matches of either fill the tail.
    const statements = await plansOf('who owns the gateway', 60);
    const ranking = statements.filter((statement) => /\brank\b/.test(statement.sql));
    expect(ranking.length).toBeGreaterThan(0);
    for (const { plan } of ranking) {
      const { flags, constraints } = ftsIndex(plan);
      // Either FTS5 ranks with its own top-n heap, or it starts from the window's rowid bound.
      expect((flags & 32) !== 0 || constraints.includes('>')).toBe(true);
    }
    const bounded = ranking.filter(({ plan }) => ftsIndex(plan).constraints.includes('>'));
    expect(bounded.length).toBeGreaterThan(0);
    // The bound comes from a walk of the newest matches that FTS5 serves in rowid order, with no sort.
    const windowStarts = statements.filter((statement) => /ORDER BY rowid DESC LIMIT 1 OFFSET/.test(statement.sql));
    expect(windowStarts.length).toBeGreaterThan(0);
    for (const { plan } of windowStarts) {
      expect(ftsIndex(plan).flags & 192).toBe(192);
      expect(plan.some((line) => line.includes('TEMP B-TREE'))).toBe(false);
    }
  });

  it('tests each match against the filter in the candidate index by its key, never reading or scanning the table', async () => {
    for (const query of ['who owns the gateway', 'kaloren gateway owns', 'weekly lunch']) {
      const joined = (await plansOf(query)).filter(({ sql }) => /JOIN memories m\b/.test(sql));
      expect(joined.length).toBeGreaterThan(0);
      for (const { plan } of joined) {
        expect(plan.some((line) => /SEARCH m USING COVERING INDEX memories_candidate \(seq=\?/.test(line))).toBe(true);
        expect(plan.some((line) => /^SCAN m\b/.test(line))).toBe(false);
      }
    }
  });

  it("lets FTS5 rank a rare term's few matches with its own top-n heap", async () => {
    const statements = await plansOf('kaloren');
    const ranking = statements.filter((statement) => /\brank\b/.test(statement.sql));
    expect(ranking.length).toBeGreaterThan(0);
    for (const { plan } of ranking) {
      expect(ftsIndex(plan).flags & 32).toBe(32);
      expect(plan.some((line) => line.includes('TEMP B-TREE'))).toBe(false);
    }
  });
});
