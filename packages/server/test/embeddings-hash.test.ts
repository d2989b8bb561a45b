import { embed } from 'ai';
import { describe, expect, it } from 'vitest';
import { createBuiltInRegistry, HASH_MODEL_ID } from '../src/embeddings/default-registry.js';
import { createHashEmbeddingModel, HASH_DIMENSIONS, hashEmbedding } from '../src/embeddings/hash-embedding.js';
import { estimateTokens } from '../src/embeddings/registry.js';

const norm = (vector: ArrayLike<number>) =>
  Math.sqrt(Array.from(vector).reduce((sum, value) => sum + value * value, 0));
const cosine = (left: Float32Array, right: Float32Array) =>
  left.reduce((sum, value, index) => sum + value * right[index]!, 0);

describe('local/hash-384', () => {
  it('is deterministic, 384-dimensional and L2-normalised', () => {
    const first = hashEmbedding('Payments use Stripe with idempotency keys');
    const second = hashEmbedding('Payments use Stripe with idempotency keys');
    expect(first).toHaveLength(HASH_DIMENSIONS);
    expect(Array.from(first)).toEqual(Array.from(second));
    expect(norm(first)).toBeCloseTo(1, 6);
  });

  it('gives the zero vector for text without words and ignores case and width', () => {
    expect(norm(hashEmbedding('  -- !! '))).toBe(0);
    expect(Array.from(hashEmbedding('ＳＴＲＩＰＥ Keys'))).toEqual(Array.from(hashEmbedding('stripe keys')));
  });

  it('scores shared words and word forms above unrelated text', () => {
    const query = hashEmbedding('camping trip');
    const related = hashEmbedding('We camped by the lake on our trip');
    const unrelated = hashEmbedding('The office plant needs water on Mondays');
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.2);
  });

  it('works as an AI SDK embedding model', async () => {
    const { embedding } = await embed({ model: createHashEmbeddingModel(), value: 'stripe keys' });
    expect(embedding).toEqual(Array.from(hashEmbedding('stripe keys')));
  });

  it('is embedded through the registry with estimated tokens and no cost', async () => {
    const registry = createBuiltInRegistry();
    const result = await registry.embed(HASH_MODEL_ID, ['abcdefgh', 'abc']);
    expect(result.embeddings).toHaveLength(2);
    expect(result.tokens).toBe(estimateTokens(['abcdefgh', 'abc']));
    expect(result.tokens).toBe(3);
    expect(result.providerReportedTokens).toBe(false);
    expect(result.model).toMatchObject({ id: HASH_MODEL_ID, provider: 'local', name: 'hash-384', local: true });
    expect(result.model.costPerMillionTokensUsd).toBe(0);
  });

  it('rejects an unknown model with a coded error', async () => {
    await expect(createBuiltInRegistry().embed('nope/none', ['x'])).rejects.toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
    });
  });
});
