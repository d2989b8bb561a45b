const MARKER = Symbol.for('memory-service.embedding-provider-error');

/** An embedding failure with a stable code and a message safe to store and show (no body, key or statement). */
export class EmbeddingProviderError extends Error {
  readonly [MARKER] = true;
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'EmbeddingProviderError';
    this.code = code;
  }

  /** True for instances from any copy of this module. */
  static isInstance(error: unknown): error is EmbeddingProviderError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }
}

/** A failure reduced to what observability records: a code and a safe message. */
export interface EmbeddingFailure {
  code: string;
  message: string;
}

/**
 * Classifies any error thrown while embedding. Our own errors keep their code; AI SDK call errors are classified by
 * HTTP status; anything else is `EMBEDDING_FAILED` with a generic message (its text could quote a request).
 */
export function describeEmbeddingError(error: unknown): EmbeddingFailure {
  if (EmbeddingProviderError.isInstance(error)) return { code: error.code, message: error.message };
  const status =
    typeof error === 'object' && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  if (typeof status === 'number') {
    const code =
      status === 429
        ? 'EMBEDDING_RATE_LIMITED'
        : status === 401 || status === 403
          ? 'EMBEDDING_PROVIDER_AUTH_FAILED'
          : status >= 500
            ? 'EMBEDDING_PROVIDER_ERROR'
            : 'EMBEDDING_PROVIDER_REJECTED';
    return { code, message: `The embedding provider answered HTTP ${status}` };
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return { code: 'EMBEDDING_PROVIDER_TIMEOUT', message: 'The embedding provider did not answer in time' };
  return { code: 'EMBEDDING_FAILED', message: 'The embedding model failed' };
}
