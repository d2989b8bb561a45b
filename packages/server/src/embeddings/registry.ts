import { embedMany } from 'ai';
import { startWorkSpan } from '../observability/request-observation.js';
import { EmbeddingProviderError } from './embedding-errors.js';
import {
  DEFAULT_MIN_SIMILARITY,
  type EmbeddingModelDefinition,
  type EmbeddingModelDescriptor,
  type EmbeddingModelObject,
  splitModelId,
} from './model-definition.js';
import { pooledEmbeddingModel } from './pooled-model.js';
import { QueryVectorCache } from './query-vector-cache.js';

/** Vectors for a batch of texts, with the token count metering records. */
export interface EmbeddingResult {
  embeddings: Float32Array[];
  tokens: number;
  /** True when the provider reported the token count; false when it is estimated (characters / 4). */
  providerReportedTokens: boolean;
  model: EmbeddingModelDescriptor;
}

interface Entry {
  definition: EmbeddingModelDefinition;
  model: EmbeddingModelObject | (() => Promise<EmbeddingModelObject>);
  loading?: Promise<EmbeddingModelObject>;
  loadFailed: boolean;
}

/** The token estimate used when a provider reports none: about four characters per token for English text. */
export function estimateTokens(values: readonly string[]): number {
  return values.reduce((total, value) => total + Math.ceil(value.length / 4), 0);
}

/**
 * The embedding models a server can use, by id. Built-in local models, AI SDK providers and OpenAI-compatible
 * endpoints its configuration names, and any `EmbeddingModel` registered by the embedding application (see
 * `createEmbeddingRegistry`; a server's is `services.embeddings`).
 *
 * @example
 * import { openai } from '@ai-sdk/openai';
 * services.embeddings.register({
 *   id: 'openai/text-embedding-3-small', dimensions: 1536, local: false, costPerMillionTokensUsd: 0.02,
 *   model: openai.embedding('text-embedding-3-small'),
 * });
 */
export class EmbeddingRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly known = new Map<string, EmbeddingModelDescriptor>();
  /** Query vectors already computed, by model and text (`embedQuery`). */
  private readonly queryVectors = new QueryVectorCache();

  /** Adds (or replaces) a model: an AI SDK model (or its loader), or a `workerModule` run in the inference pool. */
  register(definition: EmbeddingModelDefinition): void {
    if (!Number.isInteger(definition.dimensions) || definition.dimensions < 1 || definition.dimensions > 65_536)
      throw new Error(`Embedding model '${definition.id}' needs positive integer dimensions`);
    this.entries.set(definition.id, { definition, model: modelOf(definition), loadFailed: false });
    // Another model under this id embeds into another space: its earlier query vectors no longer apply.
    this.queryVectors.forget(definition.id);
  }

  /** Whether a model is registered (declared-unavailable models are not). */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Removes a model; returns whether it was registered. */
  unregister(id: string): boolean {
    this.queryVectors.forget(id);
    return this.entries.delete(id);
  }

  /** Replaces a model's price (USD per million tokens); returns whether the model is known. */
  overridePrice(id: string, costPerMillionTokensUsd: number): boolean {
    const entry = this.entries.get(id);
    if (entry !== undefined) entry.definition = { ...entry.definition, costPerMillionTokensUsd };
    const known = this.known.get(id);
    if (known !== undefined) this.known.set(id, { ...known, costPerMillionTokensUsd });
    return entry !== undefined || known !== undefined;
  }

  /** Lists a model the server knows but cannot use yet (e.g. its API key is not set), shown as unavailable. */
  declareUnavailable(descriptor: Omit<EmbeddingModelDescriptor, 'available'>): void {
    this.known.set(descriptor.id, { ...descriptor, available: false });
  }

  /** A model's descriptor, registered or declared. */
  describe(id: string): EmbeddingModelDescriptor | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return this.known.get(id);
    const { definition } = entry;
    return {
      id: definition.id,
      ...splitModelId(definition.id),
      dimensions: definition.dimensions,
      available: !entry.loadFailed,
      local: definition.local,
      costPerMillionTokensUsd: definition.costPerMillionTokensUsd,
      minSimilarity: definition.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
    };
  }

  /** Every registered or declared model, by id. */
  list(): EmbeddingModelDescriptor[] {
    const ids = new Set([...this.entries.keys(), ...this.known.keys()]);
    return [...ids]
      .sort()
      .map((id) => this.describe(id))
      .filter((descriptor) => descriptor !== undefined);
  }

  private async load(entry: Entry): Promise<EmbeddingModelObject> {
    const { model } = entry;
    if (typeof model !== 'function') return model;
    entry.loading ??= model().catch((error: unknown) => {
      entry.loadFailed = true;
      throw error;
    });
    return entry.loading;
  }

  /** Embeds texts with a model; throws `EmbeddingProviderError` (or the provider's error) on failure. */
  async embed(id: string, values: readonly string[], abortSignal?: AbortSignal): Promise<EmbeddingResult> {
    // A request's embedding is a span of its trace (when tracing is on): the model id and the text count, no text.
    const model = this.entries.has(id) ? id : 'unregistered';
    const span = startWorkSpan('embedding', {
      'memory.embedding.model': model,
      'memory.embedding.texts': values.length,
    });
    try {
      const result = await this.embedWith(id, values, abortSignal);
      span?.end();
      return result;
    } catch (error) {
      span?.end({ failed: true });
      throw error;
    }
  }

  /**
   * Embeds a query's texts like `embed`, reusing the vectors of texts this model has embedded as queries before (see
   * `QueryVectorCache`): only the others reach the model, and `tokens` counts only them; `cached` says how many were
   * reused. For queries only: memories' texts are rarely asked twice and would only push queries out. Vectors are
   * reused only within one `partition` (the tenant database asking): a quicker answer must never tell one tenant
   * that another asked the same question.
   */
  async embedQuery(
    id: string,
    values: readonly string[],
    options: { partition: string; abortSignal?: AbortSignal },
  ): Promise<EmbeddingResult & { cached: number }> {
    const entry = this.entries.get(id);
    const keyOf = (value: string) => `${options.partition}\u0000${value}`;
    const found = values.map((value) => this.queryVectors.get(id, keyOf(value)));
    const missing = values.filter((_, index) => found[index] === undefined);
    const descriptor = this.describe(id);
    if (missing.length === 0 && entry !== undefined && descriptor !== undefined && !entry.loadFailed)
      return {
        embeddings: found as Float32Array[],
        tokens: 0,
        providerReportedTokens: false,
        model: descriptor,
        cached: values.length,
      };
    const result = await this.embed(id, missing, options.abortSignal);
    let next = 0;
    const embeddings = found.map((vector) => vector ?? (result.embeddings[next++] as Float32Array));
    // Kept only if the model was not replaced while it ran (its vectors would be of the old model).
    if (this.entries.get(id) === entry)
      for (const [index, value] of missing.entries())
        this.queryVectors.set(id, keyOf(value), result.embeddings[index] as Float32Array);
    return { ...result, embeddings, cached: values.length - missing.length };
  }

  private async embedWith(id: string, values: readonly string[], abortSignal?: AbortSignal): Promise<EmbeddingResult> {
    const entry = this.entries.get(id);
    const descriptor = this.describe(id);
    if (entry === undefined || descriptor === undefined || entry.loadFailed)
      throw new EmbeddingProviderError('EMBEDDING_MODEL_UNAVAILABLE', `Embedding model '${id}' is not available`);
    if (values.length === 0) return { embeddings: [], tokens: 0, providerReportedTokens: false, model: descriptor };
    const model = await this.load(entry).catch(() => {
      throw new EmbeddingProviderError('EMBEDDING_MODEL_UNAVAILABLE', `Embedding model '${id}' could not be loaded`);
    });
    const result = await embedMany({
      model,
      values: [...values],
      // Local models do not fail transiently; a remote one gets one retry, as a write waits for it.
      maxRetries: entry.definition.local ? 0 : 1,
      ...(abortSignal ? { abortSignal } : {}),
    }).catch((error: unknown) => {
      // A pooled model loads in its worker on first use: a load that failed there makes it unavailable here too.
      const unavailable = EmbeddingProviderError.isInstance(error) && error.code === 'EMBEDDING_MODEL_UNAVAILABLE';
      if (unavailable && entry.definition.local) entry.loadFailed = true;
      throw error;
    });
    const embeddings = result.embeddings.map((embedding) => Float32Array.from(embedding));
    if (embeddings.some((embedding) => embedding.length !== entry.definition.dimensions)) {
      throw new EmbeddingProviderError(
        'EMBEDDING_DIMENSION_MISMATCH',
        `Embedding model '${id}' returned vectors of another size than its ${entry.definition.dimensions} dimensions`,
      );
    }
    const reported = result.usage.tokens;
    const providerReportedTokens = !entry.definition.local && Number.isFinite(reported) && reported > 0;
    return {
      embeddings,
      tokens: providerReportedTokens ? reported : estimateTokens(values),
      providerReportedTokens,
      model: descriptor,
    };
  }
}

/** The model a definition runs: its own, or for a worker module one that sends texts to the inference pool. */
function modelOf(definition: EmbeddingModelDefinition): Entry['model'] {
  if (definition.workerModule === undefined) return definition.model;
  const url = URL.canParse(definition.workerModule) ? new URL(definition.workerModule) : undefined;
  if (url?.protocol !== 'file:' || definition.local !== true)
    throw new Error(`Embedding model '${definition.id}' needs a local workerModule given as an absolute file: URL`);
  return pooledEmbeddingModel({
    name: definition.id,
    source: { module: url.href },
    dimensions: definition.dimensions,
  });
}
