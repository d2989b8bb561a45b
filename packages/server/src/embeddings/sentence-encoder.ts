import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { SENTENCE_ENCODER_MODEL_ID } from '../embedding-models/default-model.js';
import { pooledEmbeddingModel } from './pooled-model.js';

/** The sentence encoder's output size. */
export const SENTENCE_ENCODER_DIMENSIONS = 512;

/**
 * `local/use-lite-512`: Google's Universal Sentence Encoder Lite (Apache-2.0) on TensorFlow.js WebAssembly, offline.
 * It runs in the inference pool's workers (`sentence-encoder-runtime.ts`), each loading it once, on first use.
 */
export function createSentenceEncoderModel(): EmbeddingModelV4 {
  return pooledEmbeddingModel({
    name: SENTENCE_ENCODER_MODEL_ID,
    source: { builtIn: 'use-lite' },
    dimensions: SENTENCE_ENCODER_DIMENSIONS,
  });
}
