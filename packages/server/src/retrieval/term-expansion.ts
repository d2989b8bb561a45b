import type { InValue } from '@libsql/client';
import type { TenantDatabase } from '../tenancy/tenant-database.js';
import { PREFIX_MIN_LENGTH, prefixExpression, termExpression } from './fts-query.js';
import { aliasesOf } from './term-aliases.js';
import { SMALL_INDEX } from './term-frequency.js';

/** A query word as the search matches it: the word, its other names and, when no memory holds it, its near forms. */
export interface QueryTerm {
  /** The query word (lower-cased, as `queryTerms` reads it). */
  term: string;
  /** The FTS5 expression that matches it: a quoted word, or an OR of alternatives in parentheses. */
  expression: string;
  /** Memories matching `expression` (cached counts on a large index, fresh on a small one). */
  frequency: number;
}

/** A query's terms and the index size they were counted against. */
export interface ExpandedQuery {
  /** Rows the index holds, roughly (see `TermCounts.documentCount`). */
  documents: number;
  terms: QueryTerm[];
}

/** Compound splitting reads terms of letters only, of this many letters at most (longer: names, ids, typos). */
const MAX_SPLIT_LENGTH = 16;

/**
 * A phrase expression (words adjacent, in order) or a single quoted word. Words are letters and digits only
 * (`wordsOf`), so nothing reaches FTS syntax raw.
 */
function phraseExpression(name: string): string {
  return `"${name}"`;
}

/** Reads match counts: fresh in one statement on a small index (cheap there), else from the tenant's cache. */
async function countAll(tenant: TenantDatabase, expressions: readonly string[], fresh: boolean): Promise<number[]> {
  if (expressions.length === 0) return [];
  if (!fresh) return Promise.all(expressions.map((expression) => tenant.termCounts.matchCount(expression)));
  const parts = expressions.map(
    (_, index) => `SELECT ${index} AS item, count(*) AS frequency FROM memories_fts WHERE memories_fts MATCH ?`,
  );
  const rows = await tenant.database.all<{ item: number; frequency: number }>(
    parts.join(' UNION ALL '),
    expressions as InValue[],
  );
  const counts = expressions.map(() => 0);
  for (const row of rows) counts[Number(row.item)] = Number(row.frequency);
  return counts;
}

/** The other names of the term at `index`, and of a multi-word name starting there ("machine learning" -> "ml"). */
function aliasAlternatives(terms: readonly string[], index: number): string[] {
  const names = [...aliasesOf(terms[index] ?? '')];
  for (const length of [2, 3]) {
    if (index + length > terms.length) break;
    names.push(...aliasesOf(terms.slice(index, index + length).join(' ')));
  }
  return [...new Set(names)].map(phraseExpression);
}

/**
 * Each term joined with the next one, as one word ("road trip" -> "roadtrip"), where both are letters only, by the
 * first one's index. Compounds are written both ways, and a memory writing the two words as one
 * holds both.
 */
function joinedPairs(terms: readonly string[]): Array<{ index: number; expression: string }> {
  const word = /^\p{L}{2,}$/u;
  return terms.flatMap((term, index) => {
    const next = terms[index + 1];
    return next !== undefined && word.test(term) && word.test(next)
      ? [{ index, expression: termExpression(`${term}${next}`) }]
      : [];
  });
}

/** Every split of a word into two parts of two letters or more, as phrases ("frontend" -> "front end"). */
function splits(term: string): string[] {
  if (!/^\p{L}+$/u.test(term) || term.length < 5 || term.length > MAX_SPLIT_LENGTH) return [];
  return Array.from({ length: term.length - 3 }, (_, index) =>
    phraseExpression(`${term.slice(0, index + 2)} ${term.slice(index + 2)}`),
  );
}

/** A word's expression with its alternatives: the quoted word alone, or an OR of them all in parentheses. */
function withAlternatives(term: string, alternatives: readonly string[]): string {
  return alternatives.length === 0 ? termExpression(term) : `(${[termExpression(term), ...alternatives].join(' OR ')})`;
}

/** The best split of a word no memory holds into two adjacent words that some memory holds; none when there is none. */
async function bestSplit(tenant: TenantDatabase, term: string, fresh: boolean): Promise<string[]> {
  const candidates = splits(term);
  const counts = await countAll(tenant, candidates, fresh);
  const most = Math.max(0, ...counts);
  return most > 0 ? [candidates[counts.indexOf(most)] ?? ''] : [];
}

/**
 * The query's terms as the search matches them. Every word is matched as written (stemmed by the index: "deploy" finds
 * "deployment"); on top, a word also matches
 * - its other names from the alias table (`term-aliases.ts`), always: "golang" finds "Go", "k8s" finds "Kubernetes";
 * - itself joined with the next query word, when a memory holds that compound: "road trip" finds "roadtrip";
 * - when no memory of the tenant holds it, its best split into two adjacent words that a memory holds: "frontend"
 *   finds "front-end", "nodejs" finds "Node.js";
 * - when no memory holds any of the query's words or their forms above (last resort, before the substring and recency
 *   fallbacks), its prefix form for words of PREFIX_MIN_LENGTH letters or more: "kubern" finds "Kubernetes".
 * Why these bounds: a word no memory holds adds nothing to any ranking, so its other forms are the only evidence it
 * can give; a word that matches is never widened. A prefix widens most: with the stems already matched, it adds other
 * words of the same start ("teaches"* finds "teacher", "care"* finds "career"), and on long conversations those
 * displaced answers that the query's other words had found (recall@10 -0.003 at 1,000 messages per user); it is only
 * worth it when nothing else was found. A split or a join must match as adjacent words or one word, which other
 * words rarely do by chance. Costs one statement of counts on a small index (cached counts on a large one), a split's
 * phrase counts for words matching nothing, and one more statement when some word has alternatives.
 */
export async function expandQuery(tenant: TenantDatabase, terms: readonly string[]): Promise<ExpandedQuery> {
  let documents = await tenant.termCounts.documentCount();
  const fresh = documents < SMALL_INDEX;
  if (fresh) documents = await tenant.termCounts.documentCount(true);
  const joins = joinedPairs(terms);
  const counted = await countAll(
    tenant,
    [...terms.map(termExpression), ...joins.map((join) => join.expression)],
    fresh,
  );
  const joined = new Map(
    joins.filter((_, index) => (counted[terms.length + index] ?? 0) > 0).map((join) => [join.index, join.expression]),
  );
  const alternatives = await Promise.all(
    terms.map(async (term, index) => [
      ...aliasAlternatives(terms, index),
      ...(joined.has(index) ? [joined.get(index) ?? ''] : []),
      ...(counted[index] === 0 ? await bestSplit(tenant, term, fresh) : []),
    ]),
  );
  let expanded = await counting(tenant, terms, alternatives, counted, fresh);
  if (expanded.every((term) => term.frequency === 0)) {
    const widened = terms.map((term, index) => [
      ...(alternatives[index] ?? []),
      ...(term.length >= PREFIX_MIN_LENGTH ? [prefixExpression(term)] : []),
    ]);
    expanded = await counting(tenant, terms, widened, counted, fresh);
  }
  return { documents, terms: expanded };
}

/** The terms with their expressions and match counts (the word's own count when it has no alternatives). */
async function counting(
  tenant: TenantDatabase,
  terms: readonly string[],
  alternatives: ReadonlyArray<readonly string[]>,
  exact: readonly number[],
  fresh: boolean,
): Promise<QueryTerm[]> {
  const expressions = terms.map((term, index) => withAlternatives(term, alternatives[index] ?? []));
  const widened = terms.flatMap((_, index) => ((alternatives[index]?.length ?? 0) > 0 ? [index] : []));
  const counts = await countAll(
    tenant,
    widened.map((index) => expressions[index] ?? ''),
    fresh,
  );
  const frequencies = new Map(widened.map((index, position) => [index, counts[position] ?? 0]));
  return terms.map((term, index) => ({
    term,
    expression: expressions[index] ?? termExpression(term),
    frequency: frequencies.get(index) ?? exact[index] ?? 0,
  }));
}
