import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { hashEmbedding } from '../src/embeddings/hash-embedding.js';
import { createOpenAiCompatibleModel, embeddingsUrl } from '../src/embeddings/openai-compatible.js';
import { EmbeddingRegistry } from '../src/embeddings/registry.js';
import { createTestServer, type TestServer } from './harness.js';

const DIMENSIONS = 64;
const MODEL_ID = 'openai-compatible/fake-embed';
const received: Array<{ authorization: string | undefined; body: { model: string; input: string[] } }> = [];
let fake: Server;
let baseUrl: string;
/** Inputs containing this word make the fake endpoint answer 503. */
let failWord = 'NEVER';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  fake = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as { model: string; input: string[] };
    received.push({ authorization: request.headers.authorization, body });
    if (request.url !== '/v1/embeddings' || body.input.some((text) => text.includes(failWord))) {
      response.writeHead(request.url === '/v1/embeddings' ? 503 : 404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'secret upstream detail' } }));
      return;
    }
    const data = body.input.map((text, index) => ({ index, embedding: Array.from(hashEmbedding(text, DIMENSIONS)) }));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data, usage: { prompt_tokens: 7 * body.input.length, total_tokens: 0 } }));
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => fake.close(() => resolve()));
});

describe('OpenAI-compatible endpoint provider', () => {
  it('builds the /v1/embeddings URL from a base URL with or without /v1', () => {
    expect(embeddingsUrl('http://127.0.0.1:11434/v1/')).toBe('http://127.0.0.1:11434/v1/embeddings');
    expect(embeddingsUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080/v1/embeddings');
  });

  it('embeds over HTTP with the key, and reports the provider token count', async () => {
    const registry = new EmbeddingRegistry();
    registry.register({
      id: 'acme/fake',
      dimensions: DIMENSIONS,
      local: false,
      costPerMillionTokensUsd: 0.5,
      model: createOpenAiCompatibleModel({ baseUrl, model: 'fake-embed', apiKey: 'sk-test-123' }),
    });
    const result = await registry.embed('acme/fake', ['kayak trips', 'taxes']);
    expect(result.embeddings).toHaveLength(2);
    expect(Array.from(result.embeddings[0] ?? [])).toEqual(Array.from(hashEmbedding('kayak trips', DIMENSIONS)));
    expect(result).toMatchObject({ tokens: 14, providerReportedTokens: true });
    expect(received.at(-1)).toEqual({
      authorization: 'Bearer sk-test-123',
      body: { model: 'fake-embed', input: ['kayak trips', 'taxes'], encoding_format: 'float' },
    });
  });

  it('turns an HTTP failure into a coded error without the response body', async () => {
    const model = createOpenAiCompatibleModel({ baseUrl, model: 'fake-embed' });
    failWord = 'boom';
    const failure = model.doEmbed({ values: ['boom'] });
    await expect(failure).rejects.toMatchObject({
      code: 'EMBEDDING_PROVIDER_ERROR',
      message: 'The embedding endpoint answered HTTP 503',
    });
    const missing = createOpenAiCompatibleModel({ baseUrl: 'http://127.0.0.1:9/v1', model: 'x', timeoutMs: 2000 });
    await expect(missing.doEmbed({ values: ['x'] })).rejects.toMatchObject({ code: 'EMBEDDING_PROVIDER_UNREACHABLE' });
    failWord = 'NEVER';
  });

  it('reads endpoints from the environment and ignores malformed configuration without echoing it', () => {
    expect(
      loadConfig({
        MEMORY_EMBEDDING_ENDPOINTS: JSON.stringify([
          { baseUrl, model: 'm', dimensions: 8, id: 'ollama/m', apiKeyVariable: 'OLLAMA_KEY' },
        ]),
        OLLAMA_KEY: 'sk-from-variable',
        MEMORY_OPENAI_COMPATIBLE_BASE_URL: baseUrl,
        MEMORY_OPENAI_COMPATIBLE_MODEL: 'fake-embed',
        MEMORY_OPENAI_COMPATIBLE_DIMENSIONS: '64',
      }).embeddingEndpoints.map((endpoint) => [endpoint.id, endpoint.apiKey]),
    ).toEqual([
      ['ollama/m', 'sk-from-variable'],
      [MODEL_ID, undefined],
    ]);
    const malformed = loadConfig({ MEMORY_EMBEDDING_ENDPOINTS: '[{"apiKey":"sk-leak"}]' });
    expect(malformed.embeddingEndpoints).toEqual([]);
    expect(malformed.embeddingConfigurationError).toMatch(/^MEMORY_EMBEDDING_ENDPOINTS must be/);
    expect(malformed.embeddingConfigurationError).not.toMatch(/sk-leak/);
    expect(loadConfig({ MEMORY_OPENAI_COMPATIBLE_BASE_URL: baseUrl }).embeddingConfigurationError).toBe(
      'MEMORY_OPENAI_COMPATIBLE_BASE_URL needs MEMORY_OPENAI_COMPATIBLE_MODEL and MEMORY_OPENAI_COMPATIBLE_DIMENSIONS',
    );
  });
});

describe('a server whose default model is an OpenAI-compatible endpoint', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ embeddingModel: MODEL_ID }, undefined, {
      environment: {
        MEMORY_OPENAI_COMPATIBLE_BASE_URL: baseUrl,
        MEMORY_OPENAI_COMPATIBLE_MODEL: 'fake-embed',
        MEMORY_OPENAI_COMPATIBLE_DIMENSIONS: String(DIMENSIONS),
        MEMORY_EMBEDDING_PRICES: JSON.stringify({ [MODEL_ID]: 2 }),
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('embeds on write, serves hybrid with it, and meters provider tokens at its price', async () => {
    const added = await server.post<{ embeddingModel: string }>('/memories/add', {
      content: 'Kayak trips leave from the north pier',
    });
    expect(added.embeddingModel).toBe(MODEL_ID);
    await server.indexed();
    const found = await server.post<{ memories: Array<{ content: string }>; trace: Record<string, unknown> }>(
      '/memories/search',
      { query: 'kayak trips', strategy: 'hybrid' },
    );
    expect(found.trace).toMatchObject({ appliedStrategy: 'hybrid', embeddingModel: MODEL_ID });
    const usage = await server.call('GET', '/management/embeddings/usage');
    expect(usage.body.data?.breakdown).toEqual([
      {
        tenantId: null,
        projectId: null,
        modelId: MODEL_ID,
        provider: 'openai-compatible',
        requestCount: 2,
        itemCount: 2,
        tokenCount: 14,
        estimatedCostUsd: 0.000028,
        // memories.sh's fields (additive): the provider reported these tokens, so none is estimated.
        usageMonth: usage.body.data?.usageMonth,
        estimatedRequestCount: 0,
        inputTokens: 14,
        gatewayCostUsd: 0.000028,
        marketCostUsd: 0.000028,
        customerCostUsd: 0.000028,
      },
    ]);
  });

  it('never fails a write when the endpoint fails: the error is recorded and the backfill catches up', async () => {
    failWord = 'outage';
    const added = await server.call('POST', '/memories/add', { content: 'Written during the outage' });
    expect(added.status).toBe(201);
    await server.indexed();
    const observed = await server.call('GET', '/management/embeddings/observability');
    expect(observed.body.data?.queue.pending).toBe(1);
    expect(observed.body.data?.worker.topErrorCodes).toEqual([{ code: 'EMBEDDING_PROVIDER_ERROR', count: 1 }]);
    failWord = 'NEVER';
    const run = await server.post<{ batch: { processed: number }; backfill: { remaining: number } }>(
      '/management/embeddings/backfill',
      { action: 'run' },
    );
    expect(run.batch.processed).toBe(1);
    expect(run.backfill.remaining).toBe(0);
  });
});
