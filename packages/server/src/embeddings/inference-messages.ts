/**
 * The messages between the inference pool (`inference-pool.ts`) and its workers (`workers/inference-worker.ts`).
 * Type-only, so the worker imports nothing of the pool.
 */

/** The built-in local models a worker can run: `local/hash-<n>` and `local/use-lite-512`. */
export type BuiltInLocalModel = 'hash' | 'use-lite';

/** Where a worker finds a model: built in, or a module (absolute `file:` URL) exporting `embed(texts)`. */
export type InferenceModelSource = { builtIn: BuiltInLocalModel } | { module: string };

/** A local model as the pool knows it. */
export interface InferenceModel {
  /** The registry id, for messages (`local/use-lite-512`). */
  name: string;
  source: InferenceModelSource;
  dimensions: number;
}

/** One batch of texts for one model. */
export interface InferenceRequest {
  id: number;
  model: InferenceModel;
  texts: string[];
}

/**
 * A batch's answer: every vector, text after text, in one transferred buffer (`texts.length * dimensions` floats),
 * with the milliseconds the model itself took (the rest of a thread's first batch is the model's load), or a coded
 * failure (`EMBEDDING_MODEL_UNAVAILABLE` when the model could not be loaded).
 */
export type InferenceReply =
  | { id: number; ok: true; vectors: ArrayBuffer; embedMs: number }
  | { id: number; ok: false; error: { code: string; message: string } };

/** The key a model is loaded and queued under: one per source and size. */
export function inferenceModelKey(model: InferenceModel): string {
  const { source } = model;
  return 'builtIn' in source ? `built-in:${source.builtIn}:${model.dimensions}` : `module:${source.module}`;
}
