// The public API, by name: what the other packages, the examples and the README use. Everything else stays inside
// the package (the schemas of each operation are reachable through `operations[id].input` and `.data`).
export {
  type BackfillAction,
  CHECKPOINT_KINDS,
  CHECKPOINT_ROLES,
  type CheckpointKind,
  type CheckpointRole,
  CONTEXT_MODES,
  type ContextMode,
  defaultLayer,
  type EdgeType,
  EMBEDDING_CONFIG_SOURCE_OF,
  EMBEDDING_CONFIG_SOURCES,
  type EmbeddingConfigSource,
  type EmbeddingModelSource,
  type FeatureFlag,
  type Health,
  MEMORY_LAYERS,
  MEMORY_TYPES,
  type MemoryLayer,
  MemoryLayerSchema,
  type MemoryType,
  MemoryTypeSchema,
  ROLLOUT_MODES,
  type RolloutMode,
  type SessionEndStatus,
  type SessionStatus,
  TENANT_MODES,
  type TenantMode,
  type TenantStatus,
  type TriggerHint,
} from './enums.js';
export {
  buildMeta,
  type Envelope,
  EnvelopeSchema,
  type ErrorEnvelope,
  ErrorEnvelopeSchema,
  errorEnvelope,
  type Meta,
  MetaSchema,
  successEnvelope,
  successEnvelopeSchema,
} from './envelope.js';
export {
  type ApiErrorObject,
  ApiErrorObjectSchema,
  ERROR_CODES,
  type ErrorCode,
  type ErrorType,
  errorTypeForStatus,
  type FieldCodeRule,
  isErrorCode,
  makeApiError,
  zodErrorToApiError,
} from './errors.js';
export { IDEMPOTENCY, isIdempotencyKey } from './idempotency.js';
export { DEFAULTS, LIMITS } from './limits.js';
export {
  findMcpTool,
  inputFieldOfMcpArgument,
  inputFromMcpArguments,
  MCP_RENAMED_ARGUMENTS,
  MCP_SCOPE_ARGUMENTS,
  MCP_SNAKE_CASE_OBJECTS,
  type McpArgumentRules,
  type McpToolDefinition,
  mcpArgumentName,
  mcpArgumentsFromInput,
  mcpTools,
} from './mcp.js';
export { openApiDocument } from './openapi.js';
export { SESSION_HINT_ARGUMENTS } from './operations/context.js';
export {
  AUTH_CREDENTIALS,
  type AuthKind,
  buildPath,
  COMMON_ERROR_CODES,
  type Credential,
  featureFlagErrorCode,
  type HttpMethod,
  type McpToolExposure,
  OPERATION_TAGS,
  type OperationData,
  type OperationDefinition,
  type OperationId,
  type OperationInput,
  type OperationRequest,
  type Operations,
  type OperationTag,
  operationErrorCodes,
  operationList,
  operations,
  type RouteFeatureFlag,
  type ScopeSource,
} from './operations.js';
export { MetadataRecordSchema, MetadataSchema, nestingProblem, nonBlank, scopeField } from './resources/common.js';
export {
  type ContextGetData,
  ContextGetDataSchema,
  ContextGetInputSchema,
  type ContextTrace,
  ContextTraceSchema,
  GraphTraceDataSchema,
} from './resources/context.js';
export {
  ERASED_KINDS,
  type ErasedCounts,
  type ErasedKind,
  type EraseUserData,
  EraseUserDataSchema,
} from './resources/erase-user.js';
export { GraphStatusDataSchema } from './resources/graph-status.js';
export {
  type LifecycleHints,
  LifecycleHintsSchema,
  type SessionHints,
  SessionHintsSchema,
} from './resources/lifecycle.js';
export {
  ApiKeyEntrySchema,
  KeyInventorySchema,
  resolveTenantAttachAliases,
  TENANT_ATTACH_ALIASES,
  TenantMappingSchema,
} from './resources/management.js';
export {
  AddMemoryInputSchema,
  BulkForgetFiltersSchema,
  BulkForgetInputSchema,
  bulkForgetsAll,
  type ConflictPair,
  ConsolidateDataSchema,
  type ConsolidationRun,
  EditMemoryInputSchema,
  ForgetMemoryInputSchema,
  type GraphExplainability,
  ListMemoriesDataSchema,
  ListMemoriesInputSchema,
  type Memory,
  type MemoryChange,
  MemoryContentSchema,
  MemorySchema,
  type MemoryVersion,
  MemoryVersionSchema,
  OccurredAtSchema,
  type RecordScope,
  type RetrievedMemory,
  recordScopeOf,
  SearchMemoriesDataSchema,
  SearchMemoriesInputSchema,
  SearchTraceSchema,
} from './resources/memory.js';
export { normalizeMemoryContent } from './resources/memory-content.js';
export { AlarmSchema, LifecycleHistorySchema, RetrievalHistorySchema } from './resources/observability.js';
export { type QueryTime, resolveQueryTime } from './resources/query-time.js';
export { type ResolvedDate, ResolvedDateSchema, resolveRelativeDates } from './resources/relative-dates.js';
export {
  type QualityGate,
  type RetrievalPolicy,
  RolloutDataSchema,
  RolloutPlanSchema,
  type ShadowMetrics,
} from './resources/rollout.js';
export {
  CheckpointInputSchema,
  EndSessionInputSchema,
  type ListedSession,
  type Session,
  type SessionEvent,
  type SessionSnapshot,
  type SessionTotals,
  StartSessionInputSchema,
} from './resources/session.js';
export {
  ListSkillFilesInputSchema,
  type SkillFile,
  SkillFileSchema,
  UpsertSkillFileInputSchema,
} from './resources/skill-file.js';
export { mentionsTime, writtenDates } from './resources/time-mentions.js';
export {
  inTimeWindow,
  type QueryTimeTrace,
  QueryTimeTraceSchema,
  type TimeOrder,
  type TimeWindow,
} from './resources/time-window.js';
export {
  ExportLineSchema,
  ImportDataSchema,
  MemoryRecordSchema,
  TRANSFER_FORMAT,
  TRANSFER_LIMITS,
  TRANSFER_RECORD_KINDS,
  TRANSFER_VERSION,
  type TransferCounts,
  type TransferHeader,
  TransferHeaderSchema,
  type TransferRecord,
  type TransferRecordKind,
  TransferRecordSchema,
  type TransferTrailer,
  TransferTrailerSchema,
} from './resources/transfer.js';
export { type ResolvedScope, type Scope, ScopeSchema, TENANT_ID_PATTERN, USER_ID_PATTERN } from './scope.js';
export { placeScope, requestScope, SCOPE_FIELDS, type ScopeField, scopeLocation } from './scope-placement.js';
export {
  isStrategyAlias,
  LEGACY_STRATEGY_NAMES,
  type LegacyStrategy,
  normalizeStrategy,
  STRATEGIES,
  STRATEGY_ALIASES,
  STRATEGY_UPSTREAM_NAMES,
  type Strategy,
  type StrategyAlias,
  type StrategyInput,
  strategyInRequestVocabulary,
} from './strategy.js';
export { API_PREFIX, CONTRACT_VERSION, MCP_PATH, SERVICE_NAME } from './version.js';
