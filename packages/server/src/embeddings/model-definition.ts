import type { EmbeddingModel } from 'ai';

/** An embedding model object the AI SDK can call (a string id would go to the global gateway, so it is excluded). */
export type EmbeddingModelObject = Exclude<EmbeddingModel, string>;

/** What every model definition gives: its identity, size and price. */
interface EmbeddingModelBasics {
  /** `provider/name`, e.g. `local/hash-384` or `openai/text-embedding-3-small`. */
  id: string;
  dimensions: number;
  /** Runs in-process without network (embedded synchronously on write; metered at zero cost). */
  local: boolean;
  /** List price per million input tokens in USD (0 for local models). */
  costPerMillionTokensUsd: number;
  /**
   * Cosine similarity below which a neighbour is not a semantic candidate (unrelated texts still score above 0, by an
   * amount that depends on the model). Default `DEFAULT_MIN_SIMILARITY`.
   */
  minSimilarity?: number;
}

/**
 * A model the AI SDK calls: a model object, or a loader called once on first use (a failed load marks the model
 * unavailable).
 */
export interface AiSdkEmbeddingModelDefinition extends EmbeddingModelBasics {
  model: EmbeddingModelObject | (() => Promise<EmbeddingModelObject>);
  workerModule?: never;
}

/**
 * A local model run in the inference pool's worker threads: `workerModule` is the absolute `file:` URL of a module
 * exporting `embed(texts: string[]): number[][] | Promise<number[][]>` (one vector of `dimensions` numbers per text),
 * imported once by each worker on its first batch. A module that cannot be loaded marks the model unavailable.
 */
export interface WorkerEmbeddingModelDefinition extends EmbeddingModelBasics {
  local: true;
  workerModule: string;
  model?: never;
}

/** A model the registry can serve: its identity, size, price, and how to run it. */
export type EmbeddingModelDefinition = AiSdkEmbeddingModelDefinition | WorkerEmbeddingModelDefinition;

/** What `GET /embeddings/models` and the selection logic need to know about a model. */
export interface EmbeddingModelDescriptor {
  id: string;
  provider: string;
  name: string;
  dimensions: number;
  available: boolean;
  local: boolean;
  costPerMillionTokensUsd: number;
  minSimilarity: number;
}

/**
 * The similarity floor of models that do not set one: unrelated sentences score about 0.1-0.2 with the usual hosted
 * embedding models, related ones 0.3 and up, so 0.2 drops noise without touching real matches.
 */
export const DEFAULT_MIN_SIMILARITY = 0.2;

/** The provider and name parts of a `provider/name` model id (the name may itself contain slashes). */
export function splitModelId(id: string): { provider: string; name: string } {
  const slash = id.indexOf('/');
  return slash <= 0 ? { provider: 'custom', name: id } : { provider: id.slice(0, slash), name: id.slice(slash + 1) };
}
