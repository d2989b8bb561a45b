import type { InValue } from '@libsql/client';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { RANKED_WINDOW } from './bounded-rank.js';
import { expandQuery, type QueryTerm } from './term-expansion.js';
import { smoothedInverseDocumentFrequency } from './term-frequency.js';

/** A row of the coverage statement: a given memory matching the term at index `term`. */
interface CoverageRow {
  term: number;
  seq: number;
}

/**
 * One statement for the whole query (a round trip costs more than these lookups): which of the given memories match
 * each term as the search matches it (its expression: the word, its aliases, its near forms). A term with few matches
 * (at most RANKED_WINDOW) is read between the lowest and highest given rowid; a frequent one is looked up memory by
 * memory, which FTS5 answers by seeking in the term's list instead of reading it whole.
 */
async function readCoverage(
  tenant: TenantDatabase,
  terms: readonly QueryTerm[],
  seqs: readonly number[],
): Promise<CoverageRow[]> {
  const wanted = JSON.stringify(seqs);
  const parts: string[] = [];
  const args: InValue[] = [];
  for (const [index, { expression, frequency }] of terms.entries()) {
    if (frequency === 0) continue;
    if (frequency <= RANKED_WINDOW) {
      parts.push(`SELECT ${index} AS term, rowid AS seq FROM memories_fts
         WHERE memories_fts MATCH ? AND rowid BETWEEN ? AND ? AND +rowid IN (SELECT value FROM json_each(?))`);
      args.push(expression, Math.min(...seqs), Math.max(...seqs), wanted);
    } else {
      parts.push(`SELECT ${index} AS term, wanted.value AS seq
         FROM json_each(?) AS wanted CROSS JOIN memories_fts ON memories_fts.rowid = wanted.value
        WHERE memories_fts MATCH ?`);
      args.push(wanted, expression);
    }
  }
  if (parts.length === 0) return [];
  const rows = await tenant.database.all<CoverageRow>(parts.join(' UNION ALL '), args);
  return rows.map((row) => ({ term: Number(row.term), seq: Number(row.seq) }));
}

/**
 * Term coverage: for each given memory (by `seq`), the share of the query's information it contains, 0..1: the sum of
 * the IDF weights of the query terms it matches (as the full-text search matches them: stemmed, with their aliases and
 * near forms, `expandQuery`) over the sum for all the query's terms. It is 1 for a memory holding every term, and
 * above 0 for one holding any: the weight is Lucene's smoothed IDF, never 0, where FTS5's BM25 gives a term in more
 * than half the memories no weight at all (so one memory alone in its tenant scored 0). Rare terms weigh more, so the
 * share says how much of what is specific to the question a memory covers. It depends on the query and the tenant's
 * own counts, no constant fitted to a corpus. A term matching no memory still counts in the whole: nothing covers that
 * part. Counts are read fresh on a small index, else from the cache lexical search has just filled.
 */
export async function termCoverage(
  tenant: TenantDatabase,
  terms: readonly string[],
  seqs: readonly number[],
): Promise<Map<number, number>> {
  const coverage = new Map<number, number>();
  if (terms.length === 0 || seqs.length === 0) return coverage;
  const query = await expandQuery(tenant, terms);
  const rows = await readCoverage(tenant, query.terms, seqs);
  // One term is the whole query: every memory matching it covers all of it, whatever its weight. Cached counts may
  // trail each other by up to a minute: never more matches than documents.
  const weights = query.terms.map(({ frequency }) =>
    query.terms.length > 1 ? smoothedInverseDocumentFrequency(Math.max(query.documents, frequency), frequency) : 1,
  );
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  for (const { term, seq } of rows)
    coverage.set(seq, Math.min(1, (coverage.get(seq) ?? 0) + (weights[term] ?? 0) / total));
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
