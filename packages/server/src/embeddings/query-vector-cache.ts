/**
 * Query vectors kept per server: a question asked again (a retry, a page reload, the same question in another
 * conversation) is not embedded again, which saves the model's 15-40 ms (a local encoder) or its tokens (a paid
 * provider). 1,024 vectors take 2 MB at 512 dimensions, 6 MB at 1,536.
 */
export const QUERY_VECTOR_CACHE_SIZE = 1_024;

/**
 * The vectors of query texts, by model id and exact text (the registry prefixes the text with the tenant database
 * asking, so no tenant reuses, or times, another's), least recently used dropped first. A model's vectors are
 * forgotten when its id is registered again or removed (`EmbeddingRegistry`): another model under the same id
 * embeds into another space. A scope whose memories move to another model asks with that model's id, so it never
 * meets the old model's vectors. Vectors are shared with the callers, who only read them.
 */
export class QueryVectorCache {
  private readonly vectors = new Map<string, Float32Array>();

  constructor(private readonly capacity = QUERY_VECTOR_CACHE_SIZE) {}

  /** The cached vector of a text for a model (now the most recently used), if any. */
  get(modelId: string, text: string): Float32Array | undefined {
    const key = cacheKey(modelId, text);
    const vector = this.vectors.get(key);
    if (vector === undefined) return undefined;
    this.vectors.delete(key);
    this.vectors.set(key, vector);
    return vector;
  }

  /** Keeps a text's vector for a model, dropping the least recently used past the capacity. */
  set(modelId: string, text: string, vector: Float32Array): void {
    if (this.capacity <= 0) return;
    const key = cacheKey(modelId, text);
    this.vectors.delete(key);
    this.vectors.set(key, vector);
    while (this.vectors.size > this.capacity) {
      const oldest = this.vectors.keys().next().value;
      if (oldest === undefined) break;
      this.vectors.delete(oldest);
    }
  }

  /** Forgets every vector of a model. */
  forget(modelId: string): void {
    const prefix = cacheKey(modelId, '');
    for (const key of this.vectors.keys()) if (key.startsWith(prefix)) this.vectors.delete(key);
  }

  /** How many vectors are kept. */
  get size(): number {
    return this.vectors.size;
  }
}

/** The model id, a separator no id holds (ids are `provider/name`, printable), then the text. */
function cacheKey(modelId: string, text: string): string {
  return `${modelId}\u0000${text}`;
}
