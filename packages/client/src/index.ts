export {
  createMemoryClient,
  type MemoryClient,
  type MemoryClientOptions,
  resolveBaseUrl,
  type TransportOption,
} from './create-client.js';
export { deprecationWarningsSuppressed, normalizeStrategyInput } from './deprecation.js';
export {
  AuthError,
  CLIENT_ERROR_CODES,
  type ClientErrorContext,
  ConnectionError,
  createApiError,
  InternalError,
  MemoryApiError,
  type MemoryApiErrorOptions,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  UnsupportedOperationError,
  ValidationError,
} from './errors.js';
export {
  LIFECYCLE_HINT_KEYS,
  type LifecycleHints,
  LifecycleHintsSchema,
  type SessionHints,
  SessionHintsSchema,
  splitLifecycleHints,
} from './lifecycle/lifecycle-hints.js';
export { computeSessionHints } from './lifecycle/session-hints.js';
export { CHARACTERS_PER_TOKEN, estimateContextTokens, TOKEN_OVERHEADS } from './lifecycle/token-estimate.js';
export type { ContextGetInput, ContextGetResult, ContextResource } from './resources/context.js';
export type { EmbeddingsResource } from './resources/embeddings.js';
export type { GraphResource } from './resources/graph.js';
export type { BackfillActionInput, ManagementResource } from './resources/management.js';
export type { MemoriesResource } from './resources/memories.js';
export type { SessionsResource } from './resources/sessions.js';
export type { SkillsResource } from './resources/skills.js';
export {
  createRetryPolicy,
  isReadOperation,
  parseRetryAfter,
  type RetryOptions,
  type RetryPolicy,
  retryDelayMs,
  shouldRetry,
  withRetries,
} from './retry.js';
export { buildHttpRequest, createHttpTransport, type HttpRequestParts } from './transports/http-transport.js';
export { createMcpTransport, mcpToolFor } from './transports/mcp-transport.js';
export type { FetchFunction, Transport, TransportName, TransportSettings } from './transports/transport.js';
export type { CallInput, OperationCaller, QueryInput, ScopeOverride } from './types.js';
