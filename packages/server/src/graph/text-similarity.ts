import { queryTerms } from '../retrieval/fts-query.js';

/**
 * Jaccard similarity of word shingles at or above which two memories get a `similar_to` edge. Measured on
 * uni+bigram shingles of content words: a reworded statement of the same fact scores about 0.45-0.7, two
 * memories that merely share a topic word score below 0.2.
 */
export const LEXICAL_SIMILARITY_THRESHOLD = 0.4;

/** Content words with a light plural fold (`payments` -> `payment`), so number does not split a match. */
function stems(text: string): string[] {
  return queryTerms(text).map((term) =>
    term.length > 3 && term.endsWith('s') && !term.endsWith('ss') ? term.slice(0, -1) : term,
  );
}

/** The unigram and bigram shingles of a text's content words. */
export function shingles(text: string): Set<string> {
  const words = stems(text);
  const result = new Set(words);
  for (let index = 0; index + 1 < words.length; index += 1) result.add(`${words[index]} ${words[index + 1]}`);
  return result;
}

/** Jaccard similarity of two shingle sets (0 when both are empty). */
export function jaccard(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size === 0 && right.size === 0) return 0;
  let shared = 0;
  for (const shingle of left) if (right.has(shingle)) shared += 1;
  return shared / (left.size + right.size - shared);
}
