import type { Database } from './database.js';
import { perDatabaseCache } from './per-database-cache.js';

/** How long a count is trusted: lexical search statistics, not exact figures. */
const COUNT_TTL_MS = 60_000;
/** Term expressions whose counts one database keeps at most. */
const MAX_TERMS = 5_000;

/**
 * Document counts of one database's full-text index, cached a minute: how many memories the index holds (roughly)
 * and how many match each term. Lexical search reads them on every query to drop the terms that cannot change a
 * ranking (see `retrieval/term-frequency.ts`).
 */
export class TermCounts {
  private readonly matches = perDatabaseCache<string, number>(MAX_TERMS, COUNT_TTL_MS);
  private readonly documents = perDatabaseCache<'documents', number>(1, COUNT_TTL_MS);

  constructor(private readonly database: Database) {}

  /** How many rows the index holds, roughly (the highest rowid; deleted rows count too); `fresh` skips the cache. */
  async documentCount(fresh = false): Promise<number> {
    const cached = fresh ? undefined : this.documents.get('documents');
    if (cached !== undefined) return cached;
    const row = await this.database.get<{ documents: number | null }>('SELECT max(seq) AS documents FROM memories');
    const documents = Number(row?.documents ?? 0);
    this.documents.set('documents', documents);
    return documents;
  }

  /** Documents matching one term's FTS5 expression (as the search matches the term); `fresh` skips the cache. */
  async matchCount(expression: string, fresh = false): Promise<number> {
    const cached = fresh ? undefined : this.matches.get(expression);
    if (cached !== undefined) return cached;
    const row = await this.database.get<{ frequency: number }>(
      'SELECT count(*) AS frequency FROM memories_fts WHERE memories_fts MATCH ?',
      [expression],
    );
    const frequency = Number(row?.frequency ?? 0);
    this.matches.set(expression, frequency);
    return frequency;
  }
}
