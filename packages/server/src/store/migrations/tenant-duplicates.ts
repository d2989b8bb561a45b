import type { InStatement } from '@libsql/client';
import type { Database } from '../database.js';
import { contentHash } from '../memory-rows.js';
import type { Migration } from '../migrate.js';

/** Memories read per query, and hashes written per statement, while rehashing. */
const PAGE = 1_000;

/**
 * Every stored memory's `content_hash` under today's normalisation (`normalizeMemoryContent`, which now also folds a
 * final full stop or exclamation mark), as statements that rewrite only the hashes that changed, `PAGE` a statement.
 * Reads memories in `seq` order, a page at a time, once: about 2 s for a tenant of 100k memories whose hashes all
 * change (measured on a loaded 2-core machine; most sentences end with a full stop).
 */
async function rehashContent(database: Database): Promise<InStatement[]> {
  const changed: Array<[number, string]> = [];
  for (let after = 0; ; ) {
    const rows = await database.all<{ seq: number; content: string; content_hash: string }>(
      'SELECT seq, content, content_hash FROM memories WHERE seq > ? ORDER BY seq LIMIT ?',
      [after, PAGE],
    );
    for (const row of rows) {
      const hash = contentHash(row.content);
      if (hash !== row.content_hash) changed.push([Number(row.seq), hash]);
    }
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)?.seq);
  }
  const statements: InStatement[] = [];
  for (let start = 0; start < changed.length; start += PAGE) {
    statements.push({
      // content_hash is in no trigger's column list: the FTS index is left alone.
      sql: `UPDATE memories SET content_hash = json_extract(pair.value, '$[1]')
              FROM json_each(?) AS pair WHERE memories.seq = json_extract(pair.value, '$[0]')`,
      args: [JSON.stringify(changed.slice(start, start + PAGE))],
    });
  }
  return statements;
}

/**
 * Core tenant migration 6: `memories/add` refuses duplicates (an add equal to a live memory its scope sees answers
 * that memory). The stored hashes are recomputed with the normalisation the check compares (a final full stop now
 * folds), and a partial index finds live memories by hash: the check costs one index probe whatever the tenant's
 * size. Duplicates stored before stay until consolidation merges them; an add answers the oldest.
 */
export const duplicatesMigrations: readonly Migration[] = [
  {
    version: 6,
    name: 'memories_live_content',
    backfill: rehashContent,
    statements: [
      'CREATE INDEX memories_live_content ON memories(content_hash) WHERE deleted_at IS NULL AND superseded_by IS NULL',
    ],
  },
];
