import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import type { EmbeddingModelDefinition } from '../src/embeddings/model-definition.js';
import type { RankedCandidate } from '../src/retrieval/candidate-filter.js';
import { fuseRankings, RRF_K, SEMANTIC_WEIGHT } from '../src/retrieval/hybrid.js';
import { queryTexts } from '../src/retrieval/semantic-side.js';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { createTestServer, type TestServer } from './harness.js';
import { rankedCandidate } from './ranked-candidate.js';

function candidate(seq: number, source: RankedCandidate['source']): RankedCandidate {
  return rankedCandidate(seq, { source });
}

describe('query texts', () => {
  it('adds the content words as a second text for local models only', () => {
    expect(queryTexts('What recipes has Joanna made?', true)).toEqual([
      'What recipes has Joanna made?',
      'recipes joanna made',
    ]);
    expect(queryTexts('What recipes has Joanna made?', false)).toEqual(['What recipes has Joanna made?']);
  });

  it('embeds a query of content words only once', () => {
    expect(queryTexts('joanna recipes', true)).toEqual(['joanna recipes']);
    expect(queryTexts('Joanna, recipes!', true)).toEqual(['Joanna, recipes!']);
  });
});

describe('fusing several semantic lists', () => {
  const now = new Date('2030-01-01T00:00:00Z');
  const score = (fused: RankedCandidate[], seq: number) => fused.find((entry) => entry.row.seq === seq)?.score ?? 0;

  it('splits the semantic weight evenly between the lists', () => {
    const one = fuseRankings([], [[candidate(1, 'semantic')]], now);
    const two = fuseRankings([], [[candidate(1, 'semantic')], [candidate(1, 'semantic')]], now);
    expect(score(one, 1)).toBeCloseTo(score(two, 1), 12);
    const split = fuseRankings(
      [],
      [[candidate(1, 'semantic')], [candidate(2, 'semantic'), candidate(1, 'semantic')]],
      now,
    );
    expect(score(split, 1) - score(split, 2)).toBeCloseTo(SEMANTIC_WEIGHT / 2 / (RRF_K + 2), 12);
  });

  it('marks a memory hybrid only when both sides found it', () => {
    const fused = fuseRankings(
      [candidate(1, 'lexical')],
      [[candidate(2, 'semantic'), candidate(1, 'semantic')], [candidate(2, 'semantic')]],
      now,
    );
    expect(fused.map((entry) => [entry.row.seq, entry.source])).toEqual([
      [1, 'hybrid'],
      [2, 'semantic'],
    ]);
  });
});

describe('query vectors per model', () => {
  let server: TestServer;
  const embedded: Record<string, string[][]> = { 'test/local-spy': [], 'test/paid-spy': [] };

  beforeAll(async () => {
    const embeddingModels: EmbeddingModelDefinition[] = [];
    for (const [id, local] of [
      ['test/local-spy', true],
      ['test/paid-spy', false],
    ] as const)
      embeddingModels.push({
        id,
        dimensions: 32,
        local,
        costPerMillionTokensUsd: local ? 0 : 0.02,
        model: new MockEmbeddingModelV4({
          doEmbed: async ({ values }) => {
            embedded[id]?.push(values);
            return { embeddings: values.map((value) => Array.from(hashEmbedding(value, 32))), warnings: [] };
          },
        }),
      });
    server = await createTestServer({ embeddingModel: 'test/local-spy' }, undefined, { embeddingModels });
    for (const modelId of ['test/local-spy', 'test/paid-spy'])
      await server.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, modelId);
  });
  afterAll(async () => {
    await server.close();
  });

  it('a local model embeds the question and its content words; a paid model only the question', async () => {
    for (const [tenantId, modelId] of [
      ['local', 'test/local-spy'],
      ['paid', 'test/paid-spy'],
    ] as const) {
      const scope = { tenantId };
      await server.post('/memories/add', {
        content: 'Joanna bakes dairy-free desserts',
        scope,
        embeddingModel: modelId,
      });
      await server.indexed();
      const before = embedded[modelId]?.length ?? 0;
      const result = await server.post<{ memories: Array<{ content: string }>; trace: Record<string, unknown> }>(
        '/memories/search',
        { query: 'What desserts does Joanna bake?', strategy: 'hybrid', scope },
      );
      expect(result.trace.appliedStrategy).toBe('hybrid');
      expect(result.memories.map((memory) => memory.content)).toEqual(['Joanna bakes dairy-free desserts']);
      // The embed call after the write's (a provider may split a batch into calls of one text each).
      const texts = (embedded[modelId]?.slice(before) ?? []).flat();
      expect(texts).toEqual(
        modelId === 'test/local-spy'
          ? ['What desserts does Joanna bake?', 'desserts joanna bake']
          : ['What desserts does Joanna bake?'],
      );
    }
  });
});
