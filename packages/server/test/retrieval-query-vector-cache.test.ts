import { MockEmbeddingModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import type { EmbeddingModelDefinition } from '../src/embeddings/model-definition.js';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { createTestServer, type TestServer } from './harness.js';

const QUESTION = 'What desserts does Joanna bake?';

/** A local model that records every text it embeds, under its id. */
function spyModel(id: string, seen: string[], salt = ''): EmbeddingModelDefinition {
  return {
    id,
    dimensions: 32,
    local: true,
    costPerMillionTokensUsd: 0,
    model: new MockEmbeddingModelV4({
      doEmbed: async ({ values }) => {
        seen.push(...values);
        return { embeddings: values.map((value) => Array.from(hashEmbedding(`${salt}${value}`, 32))), warnings: [] };
      },
    }),
  };
}

interface Searched {
  memories: Array<{ content: string }>;
  trace: { appliedStrategy: string; embeddingModel: string | null };
}

describe('query vectors asked again', () => {
  let server: TestServer;
  const seen: Record<string, string[]> = { 'test/spy-a': [], 'test/spy-b': [] };
  const search = (tenantId: string) =>
    server.post<Searched>('/memories/search', { query: QUESTION, strategy: 'hybrid', scope: { tenantId } });
  const asked = (modelId: string) => (seen[modelId] ?? []).filter((text) => text === QUESTION).length;

  beforeAll(async () => {
    server = await createTestServer({ embeddingModel: 'test/spy-a' }, undefined, {
      embeddingModels: [
        spyModel('test/spy-a', seen['test/spy-a'] ?? []),
        spyModel('test/spy-b', seen['test/spy-b'] ?? []),
      ],
    });
    for (const modelId of ['test/spy-a', 'test/spy-b'])
      await server.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, modelId);
  });
  afterAll(async () => {
    await server.close();
  });

  it('embeds a question asked again only once, and answers it the same', async () => {
    await server.post('/memories/add', { content: 'Joanna bakes dairy-free desserts', scope: { tenantId: 'again' } });
    await server.indexed();
    const first = await search('again');
    const before = asked('test/spy-a');
    const second = await search('again');
    expect(first.trace.appliedStrategy).toBe('hybrid');
    expect(second).toEqual(first);
    expect(asked('test/spy-a')).toBe(before);
  });

  it("never reuses another tenant's vector: a quicker answer would tell one tenant what another asked", async () => {
    await server.post('/memories/add', { content: 'Joanna bakes rye bread', scope: { tenantId: 'elsewhere' } });
    await server.indexed();
    await search('again');
    const before = asked('test/spy-a');
    expect((await search('elsewhere')).trace.appliedStrategy).toBe('hybrid');
    expect(asked('test/spy-a')).toBe(before + 1);
  });

  it('embeds the question anew once its model is registered again under the same id', async () => {
    await search('again');
    const replaced: string[] = [];
    server.services.embeddings.register(spyModel('test/spy-a', replaced, 'another model: '));
    const answer = await search('again');
    expect(answer.trace.embeddingModel).toBe('test/spy-a');
    expect(replaced).toContain(QUESTION);
  });

  it('asks with the new model once a scope’s memories move to it, never with the old one’s vector', async () => {
    const scope = { tenantId: 'moving' };
    await server.post('/memories/add', { content: 'Joanna bakes vegan cakes', scope, embeddingModel: 'test/spy-a' });
    await server.indexed();
    expect((await search('moving')).trace.embeddingModel).toBe('test/spy-a');
    await server.post('/memories/add', { content: 'Joanna bakes lemon tarts', scope, embeddingModel: 'test/spy-b' });
    await server.indexed();
    const before = asked('test/spy-b');
    const moved = await search('moving');
    expect(moved.trace).toMatchObject({ appliedStrategy: 'hybrid', embeddingModel: 'test/spy-b' });
    expect(asked('test/spy-b')).toBe(before + 1);
  });
});
