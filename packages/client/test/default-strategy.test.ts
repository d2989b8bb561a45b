import { describe, expect, it } from 'vitest';
import { createMemoryClient, type MemoryClient } from '../src/index.js';
import { startServer, useRealServer } from './real-server.js';

const API_KEY = `mem_${'fedcba9876543210'.repeat(4)}`;

/** Waits until the server has stored the vectors of every memory of the client's scope. */
async function indexed(client: MemoryClient): Promise<void> {
  // A busy machine slows the indexer down: allow it 20 s.
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const { queue } = await client.management.embeddings.observability();
    // `indexPending` (memories waiting for their index job) is this server's additive field.
    if (queue.pending + ((queue as { indexPending?: number }).indexPending ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the memories were not indexed in time');
}

describe.skipIf(startServer === undefined)('a client that names no strategy', () => {
  // The local hashing model: fast and deterministic, and an embedding model like any other to the server.
  const running = useRealServer(API_KEY, { embeddingModel: 'local/hash-384' });

  it.each(['sdk_http', 'mcp'] as const)(
    'gets hybrid retrieval once its memories are indexed (%s)',
    async (transport) => {
      const scope = { tenantId: `default-${transport.replace('_', '-')}` };
      const baseUrl = transport === 'mcp' ? `${running.server.url}/api/mcp` : running.server.url;
      const client = createMemoryClient({ baseUrl, apiKey: API_KEY, scope });
      await client.memories.add({ content: 'Kayak trips leave from the pier at seven' });
      await client.memories.add({ content: 'The team deploys on Fridays' });
      // Answered before the vectors exist, or after: lexical, or hybrid, never an error.
      expect((await client.context.get({ query: 'kayak trips' })).trace.retrievalPolicySelection).toBe(
        'policy_default',
      );
      await indexed(createMemoryClient({ baseUrl: running.server.url, apiKey: API_KEY, scope }));
      const bundle = await client.context.get({ query: 'kayak trips' });
      expect(bundle.trace).toMatchObject({
        retrievalPolicySelection: 'policy_default',
        retrievalPolicyDefaultStrategy: 'hybrid',
        retrievalPolicyAppliedStrategy: 'hybrid',
        semanticStrategyApplied: 'hybrid',
      });
      expect(bundle.memories[0]?.content).toBe('Kayak trips leave from the pier at seven');
      const found = await client.memories.search({ query: 'kayak trips' });
      expect(found.trace).toMatchObject({ requestedStrategy: 'hybrid', appliedStrategy: 'hybrid' });
    },
    // It waits for the background indexer, which a busy machine slows down.
    30_000,
  );
});
