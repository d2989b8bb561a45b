import { buildFtsQuery } from '../../packages/server/src/retrieval/fts-query.js';
import { Database } from '../../packages/server/src/store/database.js';

/**
 * The raw FTS5 floor: the BM25-ranked MATCH at the core of a lexical search (top 20 by the table's rank), straight
 * on the same database file from this process, with no HTTP, auth, join, scope filters or JSON. p50/p95 in ms over the query set.
 */
export async function rawFtsFloor(
  databaseUrl: string,
  queries: string[],
  rounds: number,
): Promise<{ p50: number; p95: number; queries: number }> {
  const database = await Database.open({ url: databaseUrl });
  const times: number[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const query of queries) {
        const match = buildFtsQuery(query);
        if (match === null) continue;
        const started = performance.now();
        await database.all('SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT 20', [
          match,
        ]);
        times.push(performance.now() - started);
      }
    }
  } finally {
    await database.close();
  }
  times.sort((a, b) => a - b);
  const at = (fraction: number) =>
    Math.round(times[Math.min(times.length - 1, Math.ceil(fraction * times.length) - 1)]! * 100) / 100;
  return { p50: at(0.5), p95: at(0.95), queries: times.length };
}
