import type { InValue } from '@libsql/client';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { RANKED_WINDOW } from './bounded-rank.js';
import { termExpression } from './fts-query.js';
import { SMALL_INDEX, smoothedInverseDocumentFrequency } from './term-frequency.js';

/** A row of the coverage statement: a given memory matching term `term`, or (seq null) a count. */
interface CoverageRow {
  term: number;
  seq: number | null;
  frequency: number | null;
}

/**
 * One statement for the whole query (a round trip costs more than these lookups): which of the given memories match
 * each term and, with `counting`, how many memories match it (term -1: how many the index holds, as `TermCounts` reads
 * it). A term with few matches (a small index, or at most RANKED_WINDOW known matches) is matched as the search
 * matches it, reading its matches between the lowest and highest given rowid; a frequent one is looked up memory by
 * memory in its exact (stemmed) form, as a prefix query would merge every matching word's list again for each lookup.
 */
async function readCoverage(
  tenant: TenantDatabase,
  terms: readonly string[],
  seqs: readonly number[],
  options: { counting: boolean; frequencies: readonly number[] | null },
): Promise<CoverageRow[]> {
  const wanted = JSON.stringify(seqs);
  const parts: string[] = [];
  const args: InValue[] = [];
  for (const [index, term] of terms.entries()) {
    const frequency = options.frequencies?.[index];
    if (options.counting || (frequency !== undefined && frequency <= RANKED_WINDOW)) {
      parts.push(`SELECT ${index} AS term, rowid AS seq, NULL AS frequency FROM memories_fts
         WHERE memories_fts MATCH ? AND rowid BETWEEN ? AND ? AND +rowid IN (SELECT value FROM json_each(?))`);
      args.push(termExpression(term), Math.min(...seqs), Math.max(...seqs), wanted);
    } else {
      parts.push(`SELECT ${index} AS term, wanted.value AS seq, NULL AS frequency
         FROM json_each(?) AS wanted CROSS JOIN memories_fts ON memories_fts.rowid = wanted.value
        WHERE memories_fts MATCH ?`);
      args.push(wanted, `"${term}"`);
    }
    if (!options.counting) continue;
    parts.push(
      `SELECT ${index} AS term, NULL AS seq, count(*) AS frequency FROM memories_fts WHERE memories_fts MATCH ?`,
    );
    args.push(termExpression(term));
  }
  if (options.counting) parts.push('SELECT -1 AS term, NULL AS seq, max(seq) AS frequency FROM memories');
  const rows = await tenant.database.all<CoverageRow>(parts.join(' UNION ALL '), args);
  return rows.map((row) => ({
    term: Number(row.term),
    seq: row.seq === null ? null : Number(row.seq),
    frequency: row.frequency === null ? null : Number(row.frequency),
  }));
}

/**
 * Term coverage: for each given memory (by `seq`), the share of the query's information it contains, 0..1: the sum of
 * the IDF weights of the query terms it matches (as the full-text search matches them: stemmed, long terms as
 * prefixes) over the sum for all the query's terms. It is 1 for a memory holding every term, and above 0 for one
 * holding any: the weight is Lucene's smoothed IDF, never 0, where FTS5's BM25 gives a term in more than half the
 * memories no weight at all (so one memory alone in its tenant scored 0). Rare terms weigh more, so the share says how
 * much of what is specific to the question a memory covers. It depends on the query and the tenant's own counts, no
 * constant fitted to a corpus. A term matching no memory still counts in the whole: nothing covers that part. Counts
 * are read fresh on a small index, else from the cache lexical search has just filled (`termStatistics`).
 */
export async function termCoverage(
  tenant: TenantDatabase,
  terms: readonly string[],
  seqs: readonly number[],
): Promise<Map<number, number>> {
  const coverage = new Map<number, number>();
  if (terms.length === 0 || seqs.length === 0) return coverage;
  const { termCounts } = tenant;
  // One term is the whole query: every memory matching it covers all of it, whatever its weight.
  const weighed = terms.length > 1;
  const small = (await termCounts.documentCount()) < SMALL_INDEX;
  const counting = weighed && small;
  const cached =
    weighed && !small ? await Promise.all(terms.map((term) => termCounts.matchCount(termExpression(term)))) : null;
  const rows = await readCoverage(tenant, terms, seqs, { counting, frequencies: cached });
  const weights = terms.map(() => 1);
  if (weighed) {
    const frequencies =
      cached ?? terms.map((_, index) => rows.find((row) => row.term === index && row.seq === null)?.frequency ?? 0);
    const documents = counting
      ? (rows.find((row) => row.term === -1)?.frequency ?? 0)
      : await termCounts.documentCount();
    // Cached counts may trail each other by up to a minute: never more matches than documents.
    for (const [index, frequency] of frequencies.entries())
      weights[index] = smoothedInverseDocumentFrequency(Math.max(documents, frequency), frequency);
  }
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  for (const { term, seq } of rows) {
    if (seq === null || term < 0) continue;
    coverage.set(seq, Math.min(1, (coverage.get(seq) ?? 0) + (weights[term] ?? 0) / total));
  }
  return coverage;
}

/**
 * The share of the query's terms a memory's content contains as substrings (case-insensitive), as the LIKE fallback
 * matches them: the lexical score of a memory found only that way (FTS tokenises its text differently), or of one
 * whose only match a frequent term's exact form missed.
 */
export function substringCoverage(content: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  const text = content.toLowerCase();
  return terms.filter((term) => text.includes(term)).length / terms.length;
}
