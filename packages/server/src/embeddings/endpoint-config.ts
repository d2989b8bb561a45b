import type { EmbeddingModelDefinition } from './model-definition.js';
import { createOpenAiCompatibleModel } from './openai-compatible.js';

/** One OpenAI-compatible endpoint as configured in `MEMORY_EMBEDDING_ENDPOINTS`. */
export interface EndpointConfig {
  /** The model id to register, `provider/name` (default `openai-compatible/<model>`). */
  id?: string;
  baseUrl: string;
  model: string;
  dimensions: number;
  /** The API key itself (prefer `apiKeyVariable`, which names an environment variable holding it). */
  apiKey?: string;
  apiKeyVariable?: string;
  costPerMillionTokensUsd?: number;
  /** Cosine similarity floor of semantic candidates (default 0.2, see `DEFAULT_MIN_SIMILARITY`). */
  minSimilarity?: number;
  timeoutMs?: number;
}

function isEndpoint(value: unknown): value is EndpointConfig {
  const record = value as Record<string, unknown> | null;
  return (
    typeof record?.baseUrl === 'string' &&
    typeof record.model === 'string' &&
    typeof record.dimensions === 'number' &&
    Number.isInteger(record.dimensions) &&
    record.dimensions > 0
  );
}

/**
 * The endpoints the environment configures: `MEMORY_EMBEDDING_ENDPOINTS` (a JSON array of `EndpointConfig`) and the
 * single-endpoint shorthand `MEMORY_OPENAI_COMPATIBLE_BASE_URL` + `_MODEL` + `_DIMENSIONS` (+ `_API_KEY`, `_PROVIDER`).
 * Throws on a malformed value, naming the variable (never its content, which may hold a key).
 */
export function endpointsFromEnvironment(environment: Record<string, string | undefined>): EndpointConfig[] {
  const endpoints: EndpointConfig[] = [];
  const list = environment.MEMORY_EMBEDDING_ENDPOINTS;
  if (list !== undefined && list.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(list);
    } catch {
      throw new Error('MEMORY_EMBEDDING_ENDPOINTS must be a JSON array of { baseUrl, model, dimensions, ... }');
    }
    if (!Array.isArray(parsed) || !parsed.every(isEndpoint))
      throw new Error('MEMORY_EMBEDDING_ENDPOINTS must be a JSON array of { baseUrl, model, dimensions, ... }');
    endpoints.push(...parsed);
  }
  const baseUrl = environment.MEMORY_OPENAI_COMPATIBLE_BASE_URL;
  if (baseUrl !== undefined && baseUrl.trim() !== '') {
    const model = environment.MEMORY_OPENAI_COMPATIBLE_MODEL ?? '';
    const dimensions = Number(environment.MEMORY_OPENAI_COMPATIBLE_DIMENSIONS);
    if (model === '' || !Number.isInteger(dimensions) || dimensions < 1)
      throw new Error(
        'MEMORY_OPENAI_COMPATIBLE_BASE_URL needs MEMORY_OPENAI_COMPATIBLE_MODEL and MEMORY_OPENAI_COMPATIBLE_DIMENSIONS',
      );
    const provider = environment.MEMORY_OPENAI_COMPATIBLE_PROVIDER ?? 'openai-compatible';
    endpoints.push({
      id: `${provider}/${model}`,
      baseUrl,
      model,
      dimensions,
      ...(environment.MEMORY_OPENAI_COMPATIBLE_API_KEY ? { apiKey: environment.MEMORY_OPENAI_COMPATIBLE_API_KEY } : {}),
    });
  }
  return endpoints;
}

/** A registry definition for a configured endpoint (remote: embedded on write, failures recorded, not fatal). */
export function endpointDefinition(
  endpoint: EndpointConfig,
  environment: Record<string, string | undefined> = {},
  fetchFunction?: typeof fetch,
): EmbeddingModelDefinition {
  const id = endpoint.id ?? `openai-compatible/${endpoint.model}`;
  const apiKey = endpoint.apiKey ?? (endpoint.apiKeyVariable ? environment[endpoint.apiKeyVariable] : undefined);
  return {
    id,
    dimensions: endpoint.dimensions,
    local: false,
    costPerMillionTokensUsd: endpoint.costPerMillionTokensUsd ?? 0,
    ...(endpoint.minSimilarity === undefined ? {} : { minSimilarity: endpoint.minSimilarity }),
    model: createOpenAiCompatibleModel({
      baseUrl: endpoint.baseUrl,
      model: endpoint.model,
      apiKey,
      provider: id.split('/')[0] ?? 'openai-compatible',
      ...(endpoint.timeoutMs === undefined ? {} : { timeoutMs: endpoint.timeoutMs }),
      ...(fetchFunction ? { fetch: fetchFunction } : {}),
    }),
  };
}

/** Per-model price overrides from `MEMORY_EMBEDDING_PRICES` (JSON object: model id -> USD per million tokens). */
export function priceOverrides(environment: Record<string, string | undefined>): Map<string, number> {
  const text = environment.MEMORY_EMBEDDING_PRICES;
  if (text === undefined || text.trim() === '') return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('MEMORY_EMBEDDING_PRICES must be a JSON object of model id -> USD per million tokens');
  }
  const entries = Object.entries((parsed ?? {}) as Record<string, unknown>);
  if (typeof parsed !== 'object' || entries.some(([, price]) => typeof price !== 'number' || price < 0))
    throw new Error('MEMORY_EMBEDDING_PRICES must be a JSON object of model id -> USD per million tokens');
  return new Map(entries as Array<[string, number]>);
}
