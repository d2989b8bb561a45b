export * from './enums.js';
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
  ERROR_TYPES,
  type ErrorCode,
  type ErrorType,
  ErrorTypeSchema,
  errorTypeForStatus,
  type FieldCodeRule,
  isErrorCode,
  makeApiError,
  SCOPE_FIELD_CODES,
  zodErrorToApiError,
} from './errors.js';
export { IDEMPOTENCY, isIdempotencyKey } from './idempotency.js';
export { DEFAULTS, LIMITS } from './limits.js';
export {
  findMcpTool,
  inputFromMcpArguments,
  type McpArgumentRules,
  type McpToolDefinition,
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
export * from './resources/common.js';
export * from './resources/context.js';
export * from './resources/embeddings.js';
export * from './resources/erase-user.js';
export * from './resources/eval-replay.js';
export * from './resources/graph-status.js';
export * from './resources/health.js';
export * from './resources/lifecycle.js';
export * from './resources/management.js';
export * from './resources/memory.js';
export * from './resources/memory-content.js';
export * from './resources/observability.js';
export * from './resources/query-time.js';
export * from './resources/relative-dates.js';
export * from './resources/rollout.js';
export * from './resources/session.js';
export * from './resources/skill-file.js';
export * from './resources/time-mentions.js';
export * from './resources/time-window.js';
export * from './resources/transfer.js';
export {
  ProjectIdSchema,
  type ResolvedScope,
  ResolvedScopeSchema,
  type Scope,
  ScopeSchema,
  scopeQueryShape,
  TENANT_ID_PATTERN,
  TenantIdSchema,
  USER_ID_PATTERN,
  UserIdSchema,
} from './scope.js';
export { API_PREFIX, CONTRACT_VERSION, MCP_PATH, SERVICE_NAME } from './version.js';
