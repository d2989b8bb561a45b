/**
 * An inference worker thread: runs local embedding models (synchronous CPU work) off the server's event loop. Each
 * model is loaded on its first batch and kept. Batches arrive one at a time from `embeddings/inference-pool.ts` with
 * the messages of `embeddings/inference-messages.ts`; the vectors go back in one transferred Float32Array buffer.
 */
import { parentPort } from 'node:worker_threads';
import { hashEmbedding } from '../embeddings/hash-vector.js';
import {
  type InferenceModel,
  type InferenceReply,
  type InferenceRequest,
  inferenceModelKey,
} from '../embeddings/inference-messages.js';
import { loadSentenceEncoder } from '../embeddings/sentence-encoder-runtime.js';

type Vectors = ArrayLike<number>[];
type Embed = (texts: string[]) => Promise<Vectors> | Vectors;

/** A model that could not be loaded (the pool marks it unavailable). */
class LoadError extends Error {}

/** Loads a user's model module: it must export `embed(texts)` returning one vector per text. */
async function loadModule(url: string): Promise<Embed> {
  const loaded: { embed?: unknown } = await import(url);
  const { embed } = loaded;
  if (typeof embed !== 'function') throw new Error(`The module exports no embed(texts) function`);
  return (texts) => embed(texts) as Promise<Vectors> | Vectors;
}

async function load(model: InferenceModel): Promise<Embed> {
  const { source, dimensions } = model;
  if ('module' in source) return loadModule(source.module);
  if (source.builtIn === 'hash') return (texts) => texts.map((text) => hashEmbedding(text, dimensions));
  return loadSentenceEncoder();
}

const models = new Map<string, Promise<Embed>>();

function modelFor(model: InferenceModel): Promise<Embed> {
  const key = inferenceModelKey(model);
  let loading = models.get(key);
  if (loading === undefined) {
    loading = load(model).catch((error: unknown) => {
      // Not kept: a model registered again (its module fixed) loads anew.
      models.delete(key);
      throw new LoadError(error instanceof Error ? error.message : 'unknown error');
    });
    models.set(key, loading);
  }
  return loading;
}

/** The batch's vectors, text after text, in one buffer; null when one has the wrong size. */
function pack(vectors: Vectors, count: number, dimensions: number): Float32Array | null {
  if (!Array.isArray(vectors) || vectors.length !== count) return null;
  const packed = new Float32Array(count * dimensions);
  for (let index = 0; index < count; index++) {
    const vector = vectors[index] as ArrayLike<number>;
    if (vector?.length !== dimensions) return null;
    packed.set(vector, index * dimensions);
  }
  return packed;
}

async function handle(request: InferenceRequest): Promise<{ reply: InferenceReply; transfer: ArrayBuffer[] }> {
  const { id, model, texts } = request;
  let embed: Embed;
  try {
    embed = await modelFor(model);
  } catch (error) {
    // A load error names a file or a package, never a text, so it is safe to pass on.
    const reason = error instanceof LoadError ? error.message.slice(0, 300) : 'unknown error';
    const message = `Embedding model '${model.name}' could not be loaded: ${reason}`;
    return { reply: { id, ok: false, error: { code: 'EMBEDDING_MODEL_UNAVAILABLE', message } }, transfer: [] };
  }
  let packed: Float32Array | null;
  // The model's own time: the pool counts the rest of a first batch's time as the model's load.
  const embedStarted = performance.now();
  try {
    packed = pack(await embed(texts), texts.length, model.dimensions);
  } catch {
    // The model's own error may quote the texts: only a generic message leaves the worker.
    const message = `Local embedding model '${model.name}' failed`;
    return { reply: { id, ok: false, error: { code: 'EMBEDDING_FAILED', message } }, transfer: [] };
  }
  if (packed === null) {
    const message = `Embedding model '${model.name}' returned vectors of another size than its ${model.dimensions} dimensions`;
    return { reply: { id, ok: false, error: { code: 'EMBEDDING_DIMENSION_MISMATCH', message } }, transfer: [] };
  }
  const vectors = packed.buffer as ArrayBuffer;
  return { reply: { id, ok: true, vectors, embedMs: performance.now() - embedStarted }, transfer: [vectors] };
}

parentPort?.on('message', (request: InferenceRequest) => {
  void handle(request).then(({ reply, transfer }) => parentPort?.postMessage(reply, transfer));
});
