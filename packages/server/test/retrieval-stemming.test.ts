import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RankedCandidate } from '../src/retrieval/candidate-filter.js';
import { COMMON_TERM_WEIGHT, commonTermCredit, fuseRankings } from '../src/retrieval/hybrid.js';
import { smoothedInverseDocumentFrequency } from '../src/retrieval/term-frequency.js';
import { Database } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';
import { rankedCandidate } from './ranked-candidate.js';

const folder = mkdtempSync(path.join(tmpdir(), 'memory-fts-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function insert(database: Database, id: string, content: string): Promise<void> {
  const now = new Date().toISOString();
  await database.run(
    `INSERT INTO memories (id, content, type, layer, content_hash, created_at, updated_at)
     VALUES (?, ?, 'fact', 'long_term', ?, ?, ?)`,
    [id, content, id, now, now],
  );
}

async function matching(database: Database, match: string): Promise<string[]> {
  const rows = await database.all<{ id: string }>(
    'SELECT m.id FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? ORDER BY m.seq',
    [match],
  );
  return rows.map((row) => row.id);
}

describe('FTS migration 4 (Porter stemming)', () => {
  it('rebuilds an existing index with stemming and keeps the triggers and rank function', async () => {
    const database = await Database.open({ url: `file:${path.join(folder, 'tenant.db')}` });
    await migrate(
      database,
      tenantMigrations.filter((migration) => migration.version <= 3),
    );
    await insert(database, 'old', 'We painted the fence last weekend');
    expect(await matching(database, '"paint"')).toEqual([]);

    await migrate(database, tenantMigrations);
    // Written before the migration, found by another form of the word after it.
    expect(await matching(database, '"painting"')).toEqual(['old']);
    await insert(database, 'new', 'She paints landscapes');
    expect(await matching(database, '"painted"')).toEqual(['old', 'new']);
    await database.run("UPDATE memories SET content = 'Kayaks on the lake' WHERE id = 'old'");
    expect(await matching(database, '"paint"')).toEqual(['new']);
    await database.run("DELETE FROM memories WHERE id = 'new'");
    expect(await matching(database, '"paint"')).toEqual([]);
    const rank = await database.get<{ v: string }>("SELECT v FROM memories_fts_config WHERE k = 'rank'");
    expect(rank?.v).toBe('bm25(1.0, 1.5, 1.2, 0.75)');
  });
});

function candidate(seq: number, content: string): RankedCandidate {
  return rankedCandidate(seq, { content });
}

describe('common-term credit', () => {
  const idf = smoothedInverseDocumentFrequency(100, 60);
  const common = [{ term: 'melanie', idf }];

  it('is positive for a term in most documents, where BM25 gives none', () => {
    expect(idf).toBeGreaterThan(0);
    expect(idf).toBeLessThan(Math.log(2));
    expect(commonTermCredit(candidate(1, 'Melanie: I painted a lake'), common)).toBeCloseTo(COMMON_TERM_WEIGHT * idf);
    expect(commonTermCredit(candidate(2, 'Caroline: I painted a lake'), common)).toBe(0);
  });

  it('reorders near ties in fusion, never a whole list', () => {
    const now = new Date('2020-01-01T00:00:00.000Z');
    const about = candidate(2, 'Melanie: we painted together');
    const other = candidate(1, 'Caroline: I painted that too');
    const near = fuseRankings([other, about], [], now, { common }).map((entry) => entry.row.seq);
    expect(near).toEqual([2, 1]);
    const list = Array.from({ length: 40 }, (_, index) => candidate(index + 10, `Caroline: note ${index}`));
    const far = fuseRankings([...list, about], [], now, { common }).map((entry) => entry.row.seq);
    expect(far.indexOf(2)).toBeGreaterThan(5);
  });
});
