import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_OWNER_ID } from '../src/store/control-store.js';
import { type EncoderControl, encoderControl } from './fixtures/inference-control.js';
import { createTestServer, type TestServer } from './harness.js';

// A local model that busy-waits in its worker while the test holds it, as a slow CPU-bound encoder would.
const MODEL = 'test/slow';
const tenantId = 'slow';
let control: EncoderControl;
let server: TestServer;

// Queries embed with the model the scope's memories were embedded with (memories/search takes no model).
const search = (query: string) =>
  server.call('POST', '/memories/search', { query, strategy: 'hybrid', scope: { tenantId } });

beforeAll(async () => {
  control = encoderControl();
  const slow = {
    id: MODEL,
    dimensions: control.dimensions,
    local: true as const,
    costPerMillionTokensUsd: 0,
    workerModule: control.url,
  };
  // One inference thread and room for one waiting text: a held batch fills the pool and the queue quickly.
  server = await createTestServer({ embeddingWorkers: 1, embeddingQueueLimit: 1 }, undefined, {
    embeddingModels: [slow],
  });
  await server.services.control.embeddingConfig.allow(DEFAULT_OWNER_ID, MODEL);
  await server.post('/memories/add', {
    content: 'Kayak trips leave from the pier',
    embeddingModel: MODEL,
    scope: { tenantId },
  });
  // The vector may be written after the add answers: wait until queries use it.
  await vi.waitFor(async () => expect((await search('kayak')).body.data?.trace.semanticFallbackTriggered).toBe(false), {
    timeout: 20_000,
    interval: 50,
  });
});
afterAll(async () => {
  control.release();
  await server.close();
  control.cleanUp();
});

describe('local inference off the event loop', () => {
  it('answers /health while the encoder holds a batch', async () => {
    control.hold();
    let embedded = false;
    const embedding = server.services.embeddings.embed(MODEL, ['held for health']).finally(() => {
      embedded = true;
    });
    await control.started('held for health');
    const health = await server.call('GET', '/health', undefined, { key: null });
    expect(health.status).toBe(200);
    expect(embedded).toBe(false);
    control.release();
    expect((await embedding).embeddings).toHaveLength(1);
  });

  it('refuses work past the queue limit with a retryable SERVER_BUSY and Retry-After', async () => {
    control.hold();
    const holder = search('kayak alpha');
    await control.started('kayak alpha');
    // The held batch has the thread; of two more queries, one waits (the limit is one text) and one is refused: the
    // refused one answers first, while the other still waits behind the held batch.
    const queries = [search('kayak bravo'), search('kayak charlie')];
    const busy = await Promise.race(queries);
    control.release();
    const answers = await Promise.all(queries);
    expect(answers.filter((answer) => answer.status === 503)).toHaveLength(1);
    expect(busy.status).toBe(503);
    expect(busy.body.error).toMatchObject({ code: 'SERVER_BUSY', retryable: true });
    expect(busy.body.error?.details?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(Number(busy.headers.get('retry-after'))).toBe(busy.body.error?.details?.retryAfterSeconds);

    const served = [await holder, ...answers.filter((answer) => answer.status !== 503)];
    for (const answer of served) {
      expect(answer.status).toBe(200);
      expect(answer.body.data?.trace.semanticFallbackTriggered).toBe(false);
    }
  });
});
