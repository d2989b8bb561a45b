export { API_PREFIX, CONTRACT_VERSION, MCP_PATH, SERVICE_NAME } from './version.js';
export { DEFAULTS, LIMITS } from './limits.js';
export * from './enums.js';
export {
  ERROR_CODES,
  ERROR_TYPES,
  ApiErrorObjectSchema,
  ErrorTypeSchema,
  SCOPE_FIELD_CODES,
  errorTypeForStatus,
  isErrorCode,
  makeApiError,
  zodErrorToApiError,
  type ApiErrorObject,
  type ErrorCode,
  type ErrorType,
  type FieldCodeRule,
} from './errors.js';
export {
  EnvelopeSchema,
  ErrorEnvelopeSchema,
  MetaSchema,
  buildMeta,
  errorEnvelope,
  successEnvelope,
  successEnvelopeSchema,
  type Envelope,
  type ErrorEnvelope,
  type Meta,
} from './envelope.js';
export {
  ProjectIdSchema,
  ResolvedScopeSchema,
  ScopeSchema,
  TENANT_ID_PATTERN,
  TenantIdSchema,
  USER_ID_PATTERN,
  UserIdSchema,
  scopeQueryShape,
  type ResolvedScope,
  type Scope,
} from './scope.js';
export * from './resources/common.js';
export * from './resources/context.js';
export * from './resources/embeddings.js';
export * from './resources/eval-replay.js';
export * from './resources/graph-status.js';
export * from './resources/health.js';
export * from './resources/management.js';
export * from './resources/memory.js';
export * from './resources/observability.js';
export * from './resources/rollout.js';
export * from './resources/session.js';
export * from './resources/skill-file.js';
export {
  COMMON_ERROR_CODES,
  buildPath,
  operationErrorCodes,
  operationList,
  operations,
  type AuthKind,
  type HttpMethod,
  type OperationData,
  type OperationDefinition,
  type OperationId,
  type OperationInput,
  type OperationRequest,
  type Operations,
} from './operations.js';
export { findMcpTool, inputFromMcpArguments, mcpArgumentsFromInput, mcpTools, type McpToolDefinition } from './mcp.js';
export { openApiDocument } from './openapi.js';
