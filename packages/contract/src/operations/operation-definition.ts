import type * as z from 'zod';
import type { FeatureFlag } from '../enums.js';
import type { ErrorCode, FieldCodeRule } from '../errors.js';

/**
 * Who may call a route, as the contract's route summary names it: `none` (health), `apiKey`, `apiKeyOrSession`
 * (an API key, or the admin token standing for the default owner's session) and `management` (the contract's
 * "legacy management auth": the admin token only, so a key can never mint keys).
 */
export type AuthKind = 'none' | 'apiKey' | 'apiKeyOrSession' | 'management';
/** A credential a caller holds: an API key (`mem_...`) or the operator's admin token (MEMORY_ADMIN_TOKEN). */
export type Credential = 'apiKey' | 'adminToken';
/** The credentials each kind of route takes; a client sends the admin token, when it has one, where it is taken. */
export const AUTH_CREDENTIALS: { readonly [Kind in AuthKind]: readonly Credential[] } = {
  none: [],
  apiKey: ['apiKey'],
  apiKeyOrSession: ['apiKey', 'adminToken'],
  management: ['adminToken'],
};

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Where an operation's scope (tenantId, userId, projectId) comes from: `object`, the body's `scope` object;
 * `fields`, top-level `tenantId`/`userId`/`projectId` (the query string of GET routes, eval replay's body);
 * `subject`, a top-level `tenantId` that names the tenant being managed, not the caller's scope (a client's
 * default scope stays out); `none`, no scope at all.
 */
export type ScopeSource = 'object' | 'fields' | 'subject' | 'none';

/** The OpenAPI tags grouping the operations, with their descriptions. */
export const OPERATION_TAGS = {
  health: 'Service health and contract version; no authentication.',
  context: 'The context bundle returned at prompt time: rules, memories, skill files and a retrieval trace.',
  memories: 'Typed memory records (rules, notes, facts, decisions): add, search, list, edit, forget and consolidate.',
  skills: 'Skill files, and the promotion of a session snapshot into a procedural skill file.',
  sessions: 'Lifecycle sessions with checkpoints and snapshots.',
  embeddings: 'Embedding models and the selection resolved for a scope.',
  graph: 'Graph memory: status, retrieval traces and the rollout mode.',
  management:
    'Operator routes: API keys, tenant database mappings, embedding usage and backfill, observability, eval replay.',
} as const;
export type OperationTag = keyof typeof OPERATION_TAGS;

type DisabledCode<Flag extends string> = Flag extends `${infer Name}_ENABLED` ? `${Name}_DISABLED` : never;
/** The feature flags that can guard a route: those whose `<NAME>_DISABLED` is a contract code (not file mode). */
export type RouteFeatureFlag = {
  [Flag in FeatureFlag]: DisabledCode<Flag> extends ErrorCode ? Flag : never;
}[FeatureFlag];

/** The 403 code a route answers while its flag is off, as the contract's flag table gives it (`<NAME>_DISABLED`). */
export function featureFlagErrorCode<Flag extends RouteFeatureFlag>(flag: Flag): DisabledCode<Flag> {
  return flag.replace(/_ENABLED$/, '_DISABLED') as DisabledCode<Flag>;
}

/** An MCP tool that calls an operation. */
export interface McpToolExposure {
  /** The name MCP clients call it by (snake_case; real clients depend on it, so it never changes). */
  name: string;
  /** What the tool does, written for a model. */
  description: string;
  /** Input merged over the caller's arguments and left out of the advertised ones (get_rules: `rules_only`). */
  fixedInput?: Record<string, unknown>;
  /**
   * Arguments accepted and dropped, each with its description (snake_case): client-side hints that other clients of
   * the contract send the tool (get_context: the memories.sh session hints, `SESSION_HINT_ARGUMENTS`).
   */
  ignoredArguments?: Readonly<Record<string, string>>;
  /**
   * Arguments accepted at the top level that belong to the input's `filters` object (bulk_forget_memories: `types`,
   * `tags`, `older_than_days`, `pattern`, as memories.sh sends them), moved there; the same field given in both
   * places is refused as an unknown field.
   */
  filterArguments?: readonly string[];
}

/** One route+method of the contract: everything about it that client, server, MCP and OpenAPI need. */
export interface OperationDefinition<Input extends z.ZodType = z.ZodType, Data extends z.ZodType = z.ZodType> {
  id: string;
  method: HttpMethod;
  /** Relative to `API_PREFIX`; `{name}` marks a path parameter. */
  path: string;
  summary: string;
  /** What the operation does, for people reading the OpenAPI document. */
  description: string;
  /** The OpenAPI tag (declared in `OPERATION_TAGS`). */
  tag: OperationTag;
  auth: AuthKind;
  scopeSource: ScopeSource;
  /** Where the input comes from: the JSON body, or the query string (GET/DELETE). Path parameters merge in. */
  inputLocation: 'body' | 'query';
  /** The path parameters, read from `path` (`{sessionId}`). */
  pathParams: readonly string[];
  input: Input;
  data: Data;
  successStatus: 200 | 201;
  /** Other success statuses a route may give (promote: 200 on update). */
  alternateStatuses?: readonly number[];
  /** The flag that must be on, else 403 with `featureFlagErrorCode(flag)`. */
  featureFlag?: RouteFeatureFlag;
  /** The MCP tools calling this operation: the first takes its whole input, others fix part of it. */
  mcp: readonly McpToolExposure[];
  /** Repeating the call cannot change state twice (every GET, and POST routes that only read): safe to retry. */
  readOnly: boolean;
  /** The call removes data, softly or for good (MCP `destructiveHint`). */
  destructive: boolean;
  /**
   * The call may provision the database of a tenantId the workspace does not have yet. False for reads and for
   * writes that only reach records that must already exist: on an unknown tenant they answer as on an empty one
   * (nothing found, its 404) and create nothing, so a key holder cannot fill the disk without writing anything.
   */
  createsTenant: boolean;
  /** Codes the route can answer with besides the pipeline's common ones (its flag's code included). */
  errorCodes: readonly ErrorCode[];
  /** Fields whose validation failure has a specific code. */
  fieldCodes?: readonly FieldCodeRule[];
  /**
   * A body streamed as JSON lines instead of one JSON document: the answer (`response`: `application/x-ndjson`, no
   * envelope once the first line is sent; `data` describes one line) or the request (`request`: the input is the
   * query string, the body is the lines). The server runs these on its streamed path (auth, rate limits, the envelope
   * for errors before the stream starts), not through a handler of the table.
   */
  stream?: 'response' | 'request';
}

/**
 * The codes every authenticated route can give, besides its own: checking the key reads the control database, so
 * the infrastructure failures of a database (full, refused, unreachable) and of the process can answer any of them.
 */
export const COMMON_ERROR_CODES: readonly ErrorCode[] = [
  'MISSING_API_KEY',
  'INVALID_API_KEY_FORMAT',
  'INVALID_API_KEY',
  'API_KEY_EXPIRED',
  'RATE_LIMITED',
  'INVALID_REQUEST',
  'TENANT_ID_INVALID',
  'USER_ID_INVALID',
  'INTERNAL_ERROR',
  'STORAGE_FULL',
  'TENANT_DATABASE_CREDENTIALS_REJECTED',
  'TENANT_DATABASE_UNAVAILABLE',
  'SERVER_RESOURCES_EXHAUSTED',
];

/** All codes an operation can answer with: the common ones for its credential, then its own. */
export function operationErrorCodes(operation: OperationDefinition): ErrorCode[] {
  const common: ErrorCode[] = operation.auth === 'none' ? ['RATE_LIMITED', 'INTERNAL_ERROR'] : [...COMMON_ERROR_CODES];
  // A route that takes the admin token only refuses an API key with its own code.
  const operatorOnly = operation.auth !== 'none' && !AUTH_CREDENTIALS[operation.auth].includes('apiKey');
  if (operatorOnly) common.push('OPERATOR_CREDENTIAL_REQUIRED');
  // Every write takes an Idempotency-Key (idempotency.ts).
  if (!operation.readOnly && operation.auth !== 'none') common.push('IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE');
  return [...new Set([...common, ...operation.errorCodes])];
}

/** Fills `{name}` path parameters. */
export function buildPath(operation: OperationDefinition, params: Record<string, string>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
