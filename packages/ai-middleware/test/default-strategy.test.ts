import { generateText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryMiddleware } from '../src/index.js';
import { interceptedClient, type MemoryServer, startMemoryServer } from './harness.js';
import { echoModel, systemMessages } from './mock-model.js';

const scope = { userId: 'ada' };
let server: MemoryServer;
afterEach(() => server.close());

/** Waits until the server's indexer has stored the vectors of every memory written so far. */
async function indexed(memory: MemoryServer): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { queue } = await memory.client.management.embeddings.observability({ userId: scope.userId });
    // `indexPending` (memories waiting for their index job) is this server's additive field.
    if (queue.pending + ((queue as { indexPending?: number }).indexPending ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the memories were not indexed in time');
}

/** A default middleware (no `strategy`) over a client that keeps the trace of every `context/get` answer. */
function defaultMiddleware(memory: MemoryServer) {
  const traces: Array<Record<string, unknown>> = [];
  const client = interceptedClient(memory, async (path, forward) => {
    const response = await forward();
    if (path.endsWith('/context/get')) traces.push((await response.clone().json()).data.trace);
    return response;
  });
  return { middleware: memoryMiddleware({ client, scope }), traces };
}

async function ask(memory: MemoryServer, question: string) {
  const { middleware, traces } = defaultMiddleware(memory);
  const model = echoModel();
  await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: question });
  return { trace: traces[0], injected: systemMessages(model.doGenerateCalls[0]!)[0] ?? '' };
}

describe('a middleware user who sets no strategy', () => {
  it('gets hybrid retrieval from a server with an embedding model, with no operator step', async () => {
    server = await startMemoryServer({ embeddingModel: 'local/hash-384' });
    await server.client.memories.add({ content: 'The billing service is written in Go.', type: 'fact', scope });
    await indexed(server);
    const { trace, injected } = await ask(server, 'Which language is billing written in?');
    expect(trace).toMatchObject({
      retrievalPolicySelection: 'policy_default',
      retrievalPolicyDefaultStrategy: 'hybrid',
      retrievalPolicyAppliedStrategy: 'hybrid',
      semanticStrategyRequested: 'hybrid',
      semanticStrategyApplied: 'hybrid',
      semanticFallbackTriggered: false,
    });
    expect(injected).toContain('The billing service is written in Go.');
  });

  it('gets lexical retrieval, without errors, from a server whose embedding model is unavailable', async () => {
    server = await startMemoryServer({ embeddingModel: 'ghost/missing' });
    await server.client.memories.add({ content: 'The billing service is written in Go.', type: 'fact', scope });
    const { trace, injected } = await ask(server, 'Which language is billing written in?');
    expect(trace).toMatchObject({
      retrievalPolicySelection: 'policy_default',
      retrievalPolicyDefaultStrategy: 'lexical',
      retrievalPolicyAppliedStrategy: 'lexical',
      semanticStrategyRequested: 'lexical',
      semanticFallbackTriggered: false,
    });
    expect(injected).toContain('The billing service is written in Go.');
  });
});
