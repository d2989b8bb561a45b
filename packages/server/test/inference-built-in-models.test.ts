import { describe, expect, it } from 'vitest';
import { SENTENCE_ENCODER_MODEL_ID } from '../src/embedding-models/default-model.js';
import { createBuiltInRegistry, HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import { loadSentenceEncoder } from '../src/embeddings/sentence-encoder-runtime.js';

const texts = ['Payments use Stripe with idempotency keys', '', 'We camped by the lake on our trip'];
const asArrays = (vectors: ArrayLike<number>[]) => vectors.map((vector) => Array.from(vector));

describe('built-in local models through the inference pool', () => {
  it('local/hash-384 gives the vectors computed in this thread', async () => {
    const result = await createBuiltInRegistry().embed(HASH_MODEL_ID, texts);
    expect(asArrays(result.embeddings)).toEqual(asArrays(texts.map((text) => hashEmbedding(text))));
  });

  it('local/use-lite-512 gives the vectors of the encoder run in this thread', async () => {
    const [pooled, encode] = await Promise.all([
      createBuiltInRegistry().embed(SENTENCE_ENCODER_MODEL_ID, texts),
      loadSentenceEncoder(),
    ]);
    const local = (await encode(texts)).map((vector) => Float32Array.from(vector));
    expect(pooled.embeddings.map((vector) => vector.length)).toEqual([512, 512, 512]);
    expect(asArrays(pooled.embeddings)).toEqual(asArrays(local));
  });

  it('local/use-lite-512 answers texts of mixed length in their order, each with the vector it has alone', async () => {
    const encode = await loadSentenceEncoder();
    const long = Array.from({ length: 12 }, (_, index) => `We talked about the trip to the lake number ${index}.`).join(
      ' ',
    );
    // More texts than one model call takes, long and short interleaved, so that sorting by length moves them.
    const mixed = Array.from({ length: 20 }, (_, index) =>
      index % 3 === 0 ? `${long} Entry ${index}.` : `Short note ${index} about lunch`,
    );
    const together = await encode(mixed);
    const alone = await Promise.all(mixed.map(async (text) => (await encode([text]))[0]!));
    expect(together).toHaveLength(mixed.length);
    together.forEach((vector, index) => {
      const single = alone[index]!;
      expect(Math.max(...vector.map((value, offset) => Math.abs(value - single[offset]!)))).toBeLessThan(1e-5);
    });
    // Distinct texts, distinct vectors: a vector in another text's place would fail above, not pass by equality.
    expect(together[0]).not.toEqual(together[1]);
  });
});
