// The hashing itself, apart from the model object (hash-embedding.ts), so the inference worker imports it alone.

/** Dimensions of `local/hash-384`. */
export const HASH_DIMENSIONS = 384;

/**
 * Feature weights. Whole words carry the meaning; a bigram (0.5) rewards the same phrase without letting word order
 * dominate; character trigrams (0.3 per word, shared by its trigrams) let `camping` meet `camped` and survive typos.
 */
const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.3;
/**
 * Each feature is hashed into this many buckets (with independent signs): a collision with another feature then
 * moves the similarity by a third as much, which matters most for one-word queries.
 */
const HASHES_PER_FEATURE = 3;
/** Function words are kept (a query may be nothing else) but weigh a fifth of a content word. */
const STOPWORD_WEIGHT = 0.2;

const STOPWORDS = new Set(
  'a an and are as at be been but by did do does for from had has have he her him his how i if in into is it its me my of on or our she so than that the their them then there these they this to was we were what when where which who whom why will with would you your'.split(
    ' ',
  ),
);

/** FNV-1a over UTF-16 code units, then a murmur finaliser so low bits (bucket) and the top bit (sign) are mixed. */
function hash(feature: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < feature.length; index += 1) {
    value ^= feature.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  return value >>> 0;
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  for (let seed = 0; seed < HASHES_PER_FEATURE; seed += 1) {
    const value = hash(`${seed}${feature}`);
    const bucket = value % vector.length;
    vector[bucket] = (vector[bucket] ?? 0) + (value & 0x80000000 ? -weight : weight);
  }
}

/** The words of a text: NFKC, lower case, Unicode letters and digits. */
export function embeddingWords(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * Deterministic feature hashing of word unigrams, bigrams and character trigrams into `dimensions` buckets with
 * signed hashing (each feature in three buckets), L2-normalised. No weights, no network: the same text always gives the same vector.
 */
export function hashEmbedding(text: string, dimensions = HASH_DIMENSIONS): Float32Array {
  const vector = new Float32Array(dimensions);
  const words = embeddingWords(text);
  words.forEach((word, position) => {
    const weight = STOPWORDS.has(word) ? STOPWORD_WEIGHT : UNIGRAM_WEIGHT;
    addFeature(vector, `w:${word}`, weight);
    const previous = words[position - 1];
    if (previous !== undefined) addFeature(vector, `b:${previous} ${word}`, BIGRAM_WEIGHT * weight);
    const padded = `#${word}#`;
    const trigrams = padded.length - 2;
    for (let start = 0; start < trigrams; start += 1) {
      addFeature(vector, `c:${padded.slice(start, start + 3)}`, (TRIGRAM_WEIGHT * weight) / trigrams);
    }
  });
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) return vector;
  const scale = 1 / Math.sqrt(norm);
  for (let index = 0; index < vector.length; index += 1) vector[index] = (vector[index] ?? 0) * scale;
  return vector;
}
