import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingRegistry } from '../src/embeddings/registry.js';
import { sharedInferencePool } from '../src/embeddings/shared-inference-pool.js';
import { type EncoderControl, encoderControl } from './fixtures/inference-control.js';
import { createTestServer } from './harness.js';

const MODEL = 'test/counted';
let control: EncoderControl;
let registry: EmbeddingRegistry;

const asArrays = (vectors: Float32Array[]) => vectors.map((vector) => Array.from(vector));
/** Lets every caller started so far reach the pool's queue (the AI SDK's call path is a few promise steps). */
const settle = () => new Promise((resolve) => setImmediate(resolve)).then(() => new Promise(setImmediate));

beforeAll(() => {
  // One thread, so a held call holds the whole pool and what queues behind it is known.
  sharedInferencePool().configure({ workers: 1, queueLimit: 1_000, batchSize: 32, batchWindowMs: 4 });
  control = encoderControl();
  registry = new EmbeddingRegistry();
  registry.register({ id: MODEL, dimensions: 8, local: true, costPerMillionTokensUsd: 0, workerModule: control.url });
});
afterAll(() => {
  control.release();
  control.cleanUp();
});

describe('the inference pool', () => {
  it('serves concurrent callers of one model with fewer worker calls, each with its own vectors in order', async () => {
    control.hold();
    const warmUp = registry.embed(MODEL, ['warm up']);
    await control.started('warm up');
    const callsBefore = control.calls().length;
    const callers = Array.from({ length: 6 }, (_, index) => [`caller ${index} first`, `caller ${index} second`]);
    const results = callers.map((texts) => registry.embed(MODEL, texts));
    await settle();
    control.release();
    await warmUp;
    const batched = await Promise.all(results);
    const workerCalls = control.calls().length - callsBefore;
    expect(workerCalls).toBeGreaterThan(0);
    expect(workerCalls).toBeLessThan(callers.length);

    for (const [index, texts] of callers.entries()) {
      const alone = await registry.embed(MODEL, texts);
      expect(asArrays(batched[index]?.embeddings ?? [])).toEqual(asArrays(alone.embeddings));
      expect(batched[index]?.embeddings).toHaveLength(2);
    }
    // Distinct texts, distinct vectors: a caller given another caller's vectors would have failed above.
    expect(asArrays(batched[0]?.embeddings ?? [])).not.toEqual(asArrays(batched[1]?.embeddings ?? []));
  });

  it('sends a lone caller’s texts at once: the batch window only gathers texts while the model’s batches run', async () => {
    await registry.embed(MODEL, ['warm the thread']);
    // A window no test would outlast: were a lone call held for it, this call would never be answered.
    sharedInferencePool().configure({ workers: 1, queueLimit: 1_000, batchSize: 32, batchWindowMs: 600_000 });
    try {
      const alone = await registry.embed(MODEL, ['asked alone', 'and its content words']);
      expect(alone.embeddings).toHaveLength(2);
      expect(control.calls().at(-1)).toEqual(['asked alone', 'and its content words']);
    } finally {
      sharedInferencePool().configure({ workers: 1, queueLimit: 1_000, batchSize: 32, batchWindowMs: 4 });
    }
  });

  it('drops an aborted caller’s waiting texts and rejects it', async () => {
    control.hold();
    const holder = registry.embed(MODEL, ['holding the thread']);
    await control.started('holding the thread');
    const controller = new AbortController();
    const aborted = registry.embed(MODEL, ['never embedded'], controller.signal);
    const kept = registry.embed(MODEL, ['embedded after the holder']);
    await settle();
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    control.release();
    await holder;
    await kept;
    expect(control.calls().flat()).not.toContain('never embedded');
    expect(control.calls().flat()).toContain('embedded after the holder');
  });

  it('fails the batch of a worker that exits, and replaces the worker', async () => {
    await expect(registry.embed(MODEL, ['__exit__'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    const after = await registry.embed(MODEL, ['after the crash']);
    expect(after.embeddings).toHaveLength(1);
    expect(registry.describe(MODEL)?.available).toBe(true);
  });

  it('maps a failing model call to an embedding error, the model staying available', async () => {
    await expect(registry.embed(MODEL, ['__throw__'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    expect(registry.describe(MODEL)?.available).toBe(true);
  });

  it('marks a model whose module cannot be loaded unavailable', async () => {
    const missing = new URL('./fixtures/no-such-encoder.mjs', import.meta.url).href;
    registry.register({
      id: 'test/missing',
      dimensions: 8,
      local: true,
      costPerMillionTokensUsd: 0,
      workerModule: missing,
    });
    await expect(registry.embed('test/missing', ['text'])).rejects.toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
    });
    expect(registry.describe('test/missing')?.available).toBe(false);
  });

  it('refuses a worker module that is not an absolute file URL', () => {
    expect(() =>
      registry.register({
        id: 'test/relative',
        dimensions: 8,
        local: true,
        costPerMillionTokensUsd: 0,
        workerModule: './encoder.mjs',
      }),
    ).toThrow(/absolute file: URL/);
  });

  // Last: a server's settings (the default thread count) replace the one-thread configuration above.
  it('keeps serving the other servers of the process when one closes, and after the last one', async () => {
    const first = await createTestServer();
    const second = await createTestServer();
    await first.close();
    expect((await registry.embed(MODEL, ['after one server closed'])).embeddings).toHaveLength(1);
    await second.close();
    expect((await registry.embed(MODEL, ['after every server closed'])).embeddings).toHaveLength(1);
  });
});
