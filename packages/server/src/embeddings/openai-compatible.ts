import type { EmbeddingModelV4 } from '@ai-sdk/provider';
import { EmbeddingProviderError } from './embedding-errors.js';

/** How to reach one OpenAI-compatible embeddings endpoint (Ollama, LM Studio, TEI, vLLM, OpenAI itself). */
export interface OpenAiCompatibleOptions {
  /** e.g. `http://127.0.0.1:11434/v1` or `http://127.0.0.1:8080` (`/v1/embeddings` is appended as needed). */
  baseUrl: string;
  /** The model name the endpoint expects. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given. */
  apiKey?: string | undefined;
  /** Texts per request (default 64). */
  maxEmbeddingsPerCall?: number;
  /** Per-request timeout in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Provider name reported to the AI SDK (default `openai-compatible`). */
  provider?: string;
  fetch?: typeof fetch;
}

interface EmbeddingsResponse {
  data?: Array<{ embedding?: unknown; index?: unknown }>;
  usage?: { prompt_tokens?: unknown; total_tokens?: unknown };
}

/** The `/v1/embeddings` URL of a base URL given with or without its `/v1`. */
export function embeddingsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/v\d+$/.test(trimmed) ? `${trimmed}/embeddings` : `${trimmed}/v1/embeddings`;
}

function codeForStatus(status: number): string {
  if (status === 429) return 'EMBEDDING_RATE_LIMITED';
  if (status === 401 || status === 403) return 'EMBEDDING_PROVIDER_AUTH_FAILED';
  if (status >= 500) return 'EMBEDDING_PROVIDER_ERROR';
  return 'EMBEDDING_PROVIDER_REJECTED';
}

function parseEmbeddings(body: EmbeddingsResponse, count: number): number[][] {
  const rows = Array.isArray(body.data) ? body.data : [];
  const embeddings: number[][] = new Array(count);
  rows.forEach((row, position) => {
    const index = typeof row.index === 'number' ? row.index : position;
    if (Array.isArray(row.embedding) && row.embedding.every((value) => typeof value === 'number'))
      embeddings[index] = row.embedding as number[];
  });
  if (rows.length !== count || embeddings.some((embedding) => embedding === undefined)) {
    throw new EmbeddingProviderError(
      'EMBEDDING_PROVIDER_BAD_RESPONSE',
      'The embedding endpoint answered an unreadable body',
    );
  }
  return embeddings;
}

/**
 * An AI SDK `EmbeddingModelV4` over any OpenAI-compatible `POST /v1/embeddings` endpoint, using plain `fetch`.
 * Errors carry a code and a message naming the HTTP status only: response bodies and keys never reach logs.
 */
export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): EmbeddingModelV4 {
  const url = embeddingsUrl(options.baseUrl);
  const fetchFunction = options.fetch ?? globalThis.fetch;
  return {
    specificationVersion: 'v4',
    provider: options.provider ?? 'openai-compatible',
    modelId: options.model,
    maxEmbeddingsPerCall: options.maxEmbeddingsPerCall ?? 64,
    supportsParallelCalls: true,
    doEmbed: async ({ values, abortSignal, dimensions }) => {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
      const signal = abortSignal ? AbortSignal.any([abortSignal, timeout]) : timeout;
      let response: Response;
      try {
        response = await fetchFunction(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: options.model,
            input: values,
            encoding_format: 'float',
            ...(dimensions === undefined ? {} : { dimensions }),
          }),
          signal,
        });
      } catch (error) {
        const timedOut = timeout.aborted || (error instanceof Error && error.name === 'TimeoutError');
        throw timedOut
          ? new EmbeddingProviderError('EMBEDDING_PROVIDER_TIMEOUT', 'The embedding endpoint did not answer in time')
          : new EmbeddingProviderError('EMBEDDING_PROVIDER_UNREACHABLE', 'The embedding endpoint could not be reached');
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new EmbeddingProviderError(
          codeForStatus(response.status),
          `The embedding endpoint answered HTTP ${response.status}`,
        );
      }
      const body = (await response.json().catch(() => ({}))) as EmbeddingsResponse;
      const tokens = Number(body.usage?.prompt_tokens ?? body.usage?.total_tokens);
      return {
        embeddings: parseEmbeddings(body, values.length),
        ...(Number.isFinite(tokens) && tokens > 0 ? { usage: { tokens } } : {}),
        warnings: [],
      };
    },
  };
}
