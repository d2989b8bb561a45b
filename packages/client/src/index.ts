// The contract's types a client user meets in inputs, results and errors, so one import is enough.
export type {
  ApiErrorObject,
  BackfillAction,
  CheckpointKind,
  CheckpointRole,
  ConflictPair,
  ConsolidationRun,
  ContextGetData,
  ContextMode,
  ContextTrace,
  EdgeType,
  EmbeddingModelSource,
  Envelope,
  ErrorCode,
  ErrorEnvelope,
  ErrorType,
  FeatureFlag,
  GraphExplainability,
  Health,
  Memory,
  MemoryLayer,
  MemoryType,
  Meta,
  OperationData,
  OperationId,
  OperationInput,
  OperationRequest,
  QualityGate,
  ResolvedScope,
  RetrievalPolicy,
  RetrievedMemory,
  RolloutMode,
  Scope,
  Session,
  SessionEndStatus,
  SessionEvent,
  SessionSnapshot,
  SessionStatus,
  ShadowMetrics,
  SkillFile,
  Strategy,
  StrategyAlias,
  StrategyInput,
  TenantMode,
  TenantStatus,
  TriggerHint,
} from '@memory-service/contract';
export {
  createMemoryClient,
  type MemoryClient,
  type MemoryClientOptions,
  type TransportOption,
} from './create-client.js';
export {
  AuthError,
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  type ClientErrorContext,
  ConnectionError,
  InternalError,
  MemoryApiError,
  type MemoryApiErrorOptions,
  type MemoryErrorCode,
  NotFoundError,
  RateLimitError,
  RequestAbortedError,
  TimeoutError,
  UnsupportedOperationError,
  ValidationError,
} from './errors.js';
export type { LifecycleHints, SessionHints } from './lifecycle/lifecycle-hints.js';
export { computeSessionHints } from './lifecycle/session-hints.js';
export { CHARACTERS_PER_TOKEN, estimateContextTokens, TOKEN_OVERHEADS } from './lifecycle/token-estimate.js';
export type { RequestOptions } from './request-options.js';
export type { ContextGetInput, ContextGetResult, ContextResource } from './resources/context.js';
export type { EmbeddingsResource } from './resources/embeddings.js';
export type { GraphResource } from './resources/graph.js';
export type { BackfillActionInput, ManagementResource } from './resources/management.js';
export type { MemoriesResource } from './resources/memories.js';
export type { SessionsResource } from './resources/sessions.js';
export type { SkillsResource } from './resources/skills.js';
export type { RetryOptions } from './retry.js';
export type { FetchFunction, TransportName } from './transports/transport.js';
export type { CallInput, QueryInput, ScopeOverride } from './types.js';
