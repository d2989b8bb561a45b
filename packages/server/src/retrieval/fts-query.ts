/** Words too common to help ranking; dropped unless the query has nothing else. */
const STOPWORDS = new Set(
  'a an and are as at be been but by did do does for from had has have he her him his how i if in into is it its me my of on or our she so than that the their them then there these they this to was we were what when where which who whom why will with would you your'.split(
    ' ',
  ),
);

const MAX_TERMS = 32;
/**
 * Terms at least this long may be matched as prefixes, but only when no memory holds the word itself (see
 * `term-expansion.ts`): the index stems English words (Porter), so "deploy" already finds "deployment" and "painted"
 * finds "painting"; a prefix on top only adds other words ("care"* finds "career", "book"* finds "booking").
 */
export const PREFIX_MIN_LENGTH = 4;
/** An acronym written in capitals is read as a word even when it spells a stopword: "IT", "US", "WHO". */
const ACRONYM = /^[\p{Lu}\p{N}]{2,5}$/u;

/**
 * The words of a text: Unicode letters and digits, lower-cased, NFKC-normalised, in order, without repeats; stopwords
 * are dropped unless the query has nothing else. A stopword written in capitals inside a query that is not all
 * capitals is kept, as the acronym it is ("who runs IT?" asks about "it"). No word is dropped for being short: "Go",
 * "UI", "QA" and "AI" are words like any other, and BM25 weighs them by how rare they are in the tenant.
 */
export function queryTerms(text: string): string[] {
  const normalised = text.normalize('NFKC');
  const shouting = normalised === normalised.toUpperCase();
  const acronyms = shouting
    ? new Set<string>()
    : new Set((normalised.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => ACRONYM.test(word)).map(lowerCase));
  const unique = [...wordsOf(text)];
  const meaningful = unique.filter((word) => !STOPWORDS.has(word) || acronyms.has(word));
  return (meaningful.length > 0 ? meaningful : unique).slice(0, MAX_TERMS);
}

function lowerCase(word: string): string {
  return word.toLowerCase();
}

/**
 * An FTS5 MATCH expression from user text. Each term is a quoted string of letters and digits only, so no
 * user character ever reaches FTS syntax; terms are OR-ed and BM25 ranks documents matching more of them
 * higher. The index stems both sides, so "deploy" finds "deployment". Returns null when the text has no words.
 */
export function buildFtsQuery(text: string): string | null {
  return matchExpression(queryTerms(text));
}

/** One quoted term (letters and digits only): the word and its stemmed forms, as the index matches it. */
export function termExpression(term: string): string {
  return `"${term}"`;
}

/** One quoted term as an FTS5 prefix query: every word starting with it (after stemming). */
export function prefixExpression(term: string): string {
  return `"${term}"*`;
}

/**
 * Whether a text contains a query term as the FTS match would find it, approximately: a word equal to the term, or,
 * for a term of PREFIX_MIN_LENGTH letters or more, a word starting with it (standing in for the index's stemming:
 * "paint" finds "painting").
 */
export function mentionsTerm(words: ReadonlySet<string>, term: string): boolean {
  if (term.length < PREFIX_MIN_LENGTH) return words.has(term);
  for (const word of words) if (word.startsWith(term)) return true;
  return false;
}

/** The distinct words of a text as `queryTerms` reads them (stopwords kept). */
export function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
}

/** OR of quoted terms, or null when there are none. */
export function matchExpression(terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(termExpression).join(' OR ');
}
