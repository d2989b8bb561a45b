import { EmbeddingProviderError } from './embedding-errors.js';
import type { ModelQueue } from './inference-queue.js';

/** One `embed` call waiting for its vectors; its texts may be cut across several batches. */
export interface PendingCall {
  texts: readonly string[];
  vectors: Float32Array[];
  /** Index of the first text not yet taken into a batch. */
  next: number;
  /** Texts whose vectors have not come back yet. */
  unanswered: number;
  settled: boolean;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: unknown) => void;
}

/** Texts `start` to `end` (exclusive) of one call, inside a batch. */
export interface BatchPart {
  call: PendingCall;
  start: number;
  end: number;
}

/** Texts of several calls for one model, sent to a worker together. */
export interface Batch {
  queue: ModelQueue;
  parts: BatchPart[];
  texts: string[];
  startedAt: number;
}

/** Rejects a call unless it is settled already (aborted, or failed by another of its batches). */
export function failCall(call: PendingCall, error: unknown): void {
  if (call.settled) return;
  call.settled = true;
  call.reject(error);
}

/** Fails every call with texts in the batch, dropping their texts that still wait. */
export function failBatch(batch: Batch, error: unknown): void {
  for (const { call } of batch.parts) {
    batch.queue.remove(call);
    failCall(call, error);
  }
}

/**
 * Hands each call its part of a batch's vectors (views into the one transferred buffer, `dimensions` floats per text
 * in the batch's order); a call resolves once all its texts are answered.
 */
export function deliverBatch(batch: Batch, vectors: Float32Array): void {
  const { name, dimensions } = batch.queue.model;
  if (vectors.length !== batch.texts.length * dimensions) {
    const message = `Embedding model '${name}' returned vectors of another size than its ${dimensions} dimensions`;
    failBatch(batch, new EmbeddingProviderError('EMBEDDING_DIMENSION_MISMATCH', message));
    return;
  }
  let offset = 0;
  for (const { call, start, end } of batch.parts) {
    for (let index = start; index < end; index++, offset++)
      call.vectors[index] = vectors.subarray(offset * dimensions, (offset + 1) * dimensions);
    call.unanswered -= end - start;
    if (call.unanswered === 0 && !call.settled) {
      call.settled = true;
      call.resolve(call.vectors);
    }
  }
}
