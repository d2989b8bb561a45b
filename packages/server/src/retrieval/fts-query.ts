/** Words too common to help ranking; dropped unless the query has nothing else. */
const STOPWORDS = new Set(
  'a an and are as at be been but by did do does for from had has have he her him his how i if in into is it its me my of on or our she so than that the their them then there these they this to was we were what when where which who whom why will with would you your'.split(
    ' ',
  ),
);

const MAX_TERMS = 32;
/** Terms at least this long also match as prefixes (plural and verb forms). */
const PREFIX_MIN_LENGTH = 4;

/** The words of a text: Unicode letters and digits, lower-cased, NFKC-normalised, in order, without repeats. */
export function queryTerms(text: string): string[] {
  const unique = [...wordsOf(text)];
  const meaningful = unique.filter((word) => !STOPWORDS.has(word));
  return (meaningful.length > 0 ? meaningful : unique).slice(0, MAX_TERMS);
}

/**
 * An FTS5 MATCH expression from user text. Each term is a quoted string of letters and digits only, so no
 * user character ever reaches FTS syntax; terms are OR-ed and BM25 ranks documents matching more of them
 * higher; terms of 4 letters or more also match as prefixes ("deploy" finds "deployment"). Returns null when the
 * text has no words.
 */
export function buildFtsQuery(text: string): string | null {
  return matchExpression(queryTerms(text));
}

/** One quoted term (letters and digits only), as a prefix query when long enough. */
export function termExpression(term: string): string {
  return term.length >= PREFIX_MIN_LENGTH ? `"${term}"*` : `"${term}"`;
}

/**
 * Whether a text contains a query term as the FTS match would find it, approximately: a word equal to the term, or,
 * for a term long enough to be a prefix query, a word starting with it (the index also stems; this does not).
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
