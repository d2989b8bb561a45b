import type * as z from 'zod';
import type { FeatureFlag } from './enums.js';
import type { ErrorCode, FieldCodeRule } from './errors.js';
import * as context from './resources/context.js';
import * as embeddings from './resources/embeddings.js';
import * as evalReplay from './resources/eval-replay.js';
import * as graphStatus from './resources/graph-status.js';
import * as health from './resources/health.js';
import * as management from './resources/management.js';
import * as memory from './resources/memory.js';
import * as observability from './resources/observability.js';
import * as rollout from './resources/rollout.js';
import * as session from './resources/session.js';
import * as skill from './resources/skill-file.js';

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
}

/** The fields of an entry that `op()` derives when they are not given. */
type Derived = 'inputLocation' | 'pathParams' | 'mcp' | 'readOnly' | 'destructive' | 'createsTenant' | 'errorCodes';

/**
 * One entry of the table. Derived unless given: `inputLocation` from the method (GET and DELETE read the query
 * string), `pathParams` from the path, `readOnly` (GET), `createsTenant` (not read-only), no MCP tool, not
 * destructive, and the flag's 403 code among `errorCodes`.
 */
function op<const Input extends z.ZodType, const Data extends z.ZodType>(
  definition: Omit<OperationDefinition<Input, Data>, Derived> & Partial<Pick<OperationDefinition, Derived>>,
): OperationDefinition<Input, Data> {
  const readOnly = definition.readOnly ?? definition.method === 'GET';
  const flagCode = definition.featureFlag === undefined ? [] : [featureFlagErrorCode(definition.featureFlag)];
  return {
    inputLocation: definition.method === 'GET' || definition.method === 'DELETE' ? 'query' : 'body',
    pathParams: [...definition.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
    mcp: [],
    readOnly,
    destructive: false,
    createsTenant: !readOnly,
    ...definition,
    errorCodes: [...new Set([...(definition.errorCodes ?? []), ...flagCode])],
  };
}

const sessionRequired: FieldCodeRule = { field: 'sessionId', code: 'SESSION_ID_REQUIRED', when: 'missing' };
const tenantCodes: readonly ErrorCode[] = [
  'DATABASE_NOT_CONFIGURED',
  'TENANT_DATABASE_NOT_CONFIGURED',
  'TENANT_DATABASE_NOT_READY',
  'TENANT_DATABASE_CREDENTIALS_MISSING',
];

/** The operations table: every route+method of the contract, keyed by id. */
export const operations = {
  health: op({
    id: 'health',
    method: 'GET',
    path: '/health',
    summary: 'Service health and contract version',
    description: 'No authentication. Reports the service status and name, and the contract version as `schemaVersion`.',
    tag: 'health',
    auth: 'none',
    scopeSource: 'none',
    input: health.HealthInputSchema,
    data: health.HealthDataSchema,
    successStatus: 200,
  }),
  'context.get': op({
    id: 'context.get',
    method: 'POST',
    readOnly: true,
    path: '/context/get',
    summary: 'Return the context bundle for a prompt: rules, memories, skill files and a retrieval trace',
    description:
      'Returns the context bundle for a prompt: the standing rules, the memories retrieved for `query` (lexical or hybrid, with optional graph expansion over linked memories), skill files, contradictions between returned memories and a trace of how retrieval ran. Every field is optional.',
    tag: 'context',
    auth: 'apiKey',
    scopeSource: 'object',
    input: context.ContextGetInputSchema,
    data: context.ContextGetDataSchema,
    successStatus: 200,
    mcp: [
      {
        name: 'get_context',
        description:
          'Get the memory context bundle for a query: rules, relevant memories, skill files and a retrieval trace.',
      },
      {
        name: 'get_rules',
        description: 'Get the standing rules for the scope.',
        fixedInput: { mode: 'rules_only', includeRules: true },
      },
    ],
    errorCodes: tenantCodes,
  }),
  'memories.add': op({
    id: 'memories.add',
    method: 'POST',
    path: '/memories/add',
    summary: 'Store a memory',
    description:
      'Stores a typed memory (rule, note, fact, decision...) with optional tags, paths, category and metadata; answers 201 with the record and the embedding model used.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.AddMemoryInputSchema,
    data: memory.AddMemoryDataSchema,
    successStatus: 201,
    mcp: [{ name: 'add_memory', description: 'Store a memory (a rule, decision, fact, note or skill).' }],
    errorCodes: [...tenantCodes, 'EMBEDDING_MODEL_NOT_ALLOWED'],
  }),
  'memories.search': op({
    id: 'memories.search',
    method: 'POST',
    readOnly: true,
    path: '/memories/search',
    summary: 'Search memories',
    description:
      'Searches memories by text with the lexical or hybrid strategy; an empty query answers 400 QUERY_REQUIRED.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.SearchMemoriesInputSchema,
    data: memory.SearchMemoriesDataSchema,
    successStatus: 200,
    mcp: [{ name: 'search_memories', description: 'Search memories by text.' }],
    errorCodes: [...tenantCodes, 'QUERY_REQUIRED'],
    fieldCodes: [{ field: 'query', code: 'QUERY_REQUIRED', when: 'missing' }],
  }),
  'memories.list': op({
    id: 'memories.list',
    method: 'POST',
    readOnly: true,
    path: '/memories/list',
    summary: 'List memories, newest first',
    description: 'Lists memories newest first, optionally by type, layer or tags. Every field is optional.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.ListMemoriesInputSchema,
    data: memory.ListMemoriesDataSchema,
    successStatus: 200,
    mcp: [{ name: 'list_memories', description: 'List memories, newest first, optionally by type, layer or tags.' }],
    errorCodes: tenantCodes,
  }),
  'memories.edit': op({
    id: 'memories.edit',
    method: 'POST',
    path: '/memories/edit',
    summary: 'Edit a memory',
    description:
      'Changes at least one editable field of a memory (content, type, layer, tags, paths, category, metadata); a request with only `id` is invalid.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.EditMemoryInputSchema,
    data: memory.EditMemoryDataSchema,
    successStatus: 200,
    createsTenant: false,
    mcp: [{ name: 'edit_memory', description: 'Edit a stored memory by id.' }],
    errorCodes: [...tenantCodes, 'MEMORY_NOT_FOUND', 'EMBEDDING_MODEL_NOT_ALLOWED'],
  }),
  'memories.forget': op({
    id: 'memories.forget',
    method: 'POST',
    path: '/memories/forget',
    summary: 'Soft-delete a memory',
    description: 'Soft-deletes a memory by id; memories/vacuum purges it for good.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.ForgetMemoryInputSchema,
    data: memory.ForgetMemoryDataSchema,
    successStatus: 200,
    destructive: true,
    createsTenant: false,
    mcp: [{ name: 'forget_memory', description: 'Soft-delete a memory by id.' }],
    errorCodes: [...tenantCodes, 'MEMORY_NOT_FOUND'],
  }),
  'memories.bulkForget': op({
    id: 'memories.bulkForget',
    method: 'POST',
    path: '/memories/bulk-forget',
    summary: 'Soft-delete every memory matching filters (or all), with a dry run',
    description:
      'Soft-deletes every memory matching the filters (types, tags, olderThanDays, pattern), or all of them with `all: true`; `dryRun` previews the matches without deleting.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.BulkForgetInputSchema,
    data: memory.BulkForgetDataSchema,
    successStatus: 200,
    destructive: true,
    createsTenant: false,
    mcp: [
      { name: 'bulk_forget_memories', description: 'Soft-delete memories matching filters; use dry_run to preview.' },
    ],
    errorCodes: tenantCodes,
  }),
  'memories.vacuum': op({
    id: 'memories.vacuum',
    method: 'POST',
    path: '/memories/vacuum',
    summary: 'Permanently purge soft-deleted memories in scope',
    description: 'Permanently purges every soft-deleted memory in scope. Takes only `scope`, which is optional.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.VacuumInputSchema,
    data: memory.VacuumDataSchema,
    successStatus: 200,
    destructive: true,
    createsTenant: false,
    mcp: [{ name: 'vacuum_memories', description: 'Permanently purge soft-deleted memories in scope.' }],
    errorCodes: tenantCodes,
  }),
  'memories.consolidate': op({
    id: 'memories.consolidate',
    method: 'POST',
    path: '/memories/consolidate',
    summary: 'Merge duplicates and supersede stale truths',
    description:
      'Merges duplicate memories and supersedes stale ones, recording a consolidation run; `dryRun` plans without changing memories. Requires MEMORY_CONSOLIDATION_ENABLED.',
    tag: 'memories',
    auth: 'apiKey',
    scopeSource: 'object',
    input: memory.ConsolidateInputSchema,
    data: memory.ConsolidateDataSchema,
    successStatus: 200,
    createsTenant: false,
    mcp: [{ name: 'consolidate_memories', description: 'Merge duplicate memories and supersede stale ones.' }],
    featureFlag: 'MEMORY_CONSOLIDATION_ENABLED',
    errorCodes: tenantCodes,
  }),
  'skills.upsert': op({
    id: 'skills.upsert',
    method: 'POST',
    path: '/skills/files/upsert',
    summary: 'Create or update a skill file',
    description: 'Creates the skill file at `path`, or replaces its content; `created` says which.',
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.UpsertSkillFileInputSchema,
    data: skill.UpsertSkillFileDataSchema,
    successStatus: 200,
    mcp: [{ name: 'upsert_skill_file', description: 'Create or update a skill file by path.' }],
    errorCodes: tenantCodes,
  }),
  'skills.list': op({
    id: 'skills.list',
    method: 'POST',
    readOnly: true,
    path: '/skills/files/list',
    summary: 'List skill files',
    description: 'Lists the skill files in scope. Every field is optional.',
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.ListSkillFilesInputSchema,
    data: skill.ListSkillFilesDataSchema,
    successStatus: 200,
    mcp: [{ name: 'list_skill_files', description: 'List skill files.' }],
    errorCodes: tenantCodes,
  }),
  'skills.delete': op({
    id: 'skills.delete',
    method: 'POST',
    path: '/skills/files/delete',
    summary: 'Soft-delete a skill file',
    description: 'Soft-deletes the skill file at `path`.',
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.DeleteSkillFileInputSchema,
    data: skill.DeleteSkillFileDataSchema,
    successStatus: 200,
    destructive: true,
    createsTenant: false,
    mcp: [{ name: 'delete_skill_file', description: 'Soft-delete a skill file by path.' }],
    errorCodes: [...tenantCodes, 'SKILL_FILE_NOT_FOUND'],
  }),
  'skills.promote': op({
    id: 'skills.promote',
    method: 'POST',
    path: '/skills/files/promote',
    summary: 'Promote a session snapshot into a procedural skill file',
    description:
      'Turns a session snapshot into a procedural skill file at `path`: 201 when the file is created, 200 when an existing file is updated. Requires MEMORY_PROCEDURAL_ENABLED.',
    tag: 'skills',
    auth: 'apiKey',
    scopeSource: 'object',
    input: skill.PromoteSkillFileInputSchema,
    data: skill.PromoteSkillFileDataSchema,
    successStatus: 201,
    createsTenant: false,
    mcp: [{ name: 'promote_skill_file', description: 'Promote a session snapshot into a procedural skill file.' }],
    alternateStatuses: [200],
    featureFlag: 'MEMORY_PROCEDURAL_ENABLED',
    errorCodes: [
      ...tenantCodes,
      'SESSION_ID_REQUIRED',
      'SKILL_FILE_PATH_REQUIRED',
      'SESSION_NOT_FOUND',
      'SESSION_SNAPSHOT_NOT_FOUND',
    ],
    fieldCodes: [sessionRequired, { field: 'path', code: 'SKILL_FILE_PATH_REQUIRED', when: 'missing' }],
  }),
  'sessions.start': op({
    id: 'sessions.start',
    method: 'POST',
    path: '/sessions/start',
    summary: 'Start a working session',
    description:
      'Starts a working session and answers 201 with it. Every field is optional. Requires MEMORY_SESSION_ENABLED.',
    tag: 'sessions',
    auth: 'apiKey',
    scopeSource: 'object',
    input: session.StartSessionInputSchema,
    data: session.StartSessionDataSchema,
    successStatus: 201,
    mcp: [{ name: 'start_session', description: 'Start a working session.' }],
    featureFlag: 'MEMORY_SESSION_ENABLED',
    errorCodes: tenantCodes,
  }),
  'sessions.checkpoint': op({
    id: 'sessions.checkpoint',
    method: 'POST',
    path: '/sessions/checkpoint',
    summary: 'Append an event to an active session',
    description:
      'Appends an event (a turn, a summary...) to an active session; a closed or compacted session answers 409 SESSION_NOT_ACTIVE. Requires MEMORY_SESSION_ENABLED.',
    tag: 'sessions',
    auth: 'apiKey',
    scopeSource: 'object',
    input: session.CheckpointInputSchema,
    data: session.CheckpointDataSchema,
    successStatus: 200,
    createsTenant: false,
    mcp: [{ name: 'checkpoint_session', description: 'Append a checkpoint event to an active session.' }],
    featureFlag: 'MEMORY_SESSION_ENABLED',
    errorCodes: [
      ...tenantCodes,
      'SESSION_ID_REQUIRED',
      'SESSION_CONTENT_REQUIRED',
      'SESSION_NOT_FOUND',
      'SESSION_NOT_ACTIVE',
    ],
    fieldCodes: [sessionRequired, { field: 'content', code: 'SESSION_CONTENT_REQUIRED', when: 'missing' }],
  }),
  'sessions.end': op({
    id: 'sessions.end',
    method: 'POST',
    path: '/sessions/end',
    summary: 'End a session as closed or compacted and write its snapshot',
    description:
      'Ends an active session as `closed` or `compacted` and writes its snapshot. Requires MEMORY_SESSION_ENABLED.',
    tag: 'sessions',
    auth: 'apiKey',
    scopeSource: 'object',
    input: session.EndSessionInputSchema,
    data: session.EndSessionDataSchema,
    successStatus: 200,
    createsTenant: false,
    mcp: [{ name: 'end_session', description: 'End a session as closed or compacted and write its snapshot.' }],
    featureFlag: 'MEMORY_SESSION_ENABLED',
    errorCodes: [
      ...tenantCodes,
      'MEMORY_COMPACTION_DISABLED',
      'SESSION_ID_REQUIRED',
      'INVALID_SESSION_STATUS',
      'SESSION_NOT_FOUND',
      'SESSION_NOT_ACTIVE',
    ],
    fieldCodes: [sessionRequired, { field: 'status', code: 'INVALID_SESSION_STATUS', when: 'any' }],
  }),
  'sessions.snapshot': op({
    id: 'sessions.snapshot',
    method: 'GET',
    path: '/sessions/{sessionId}/snapshot',
    summary: "Read a session's latest snapshot",
    description:
      "Returns a session's latest snapshot; the scope is read from the query string. Requires MEMORY_SESSION_ENABLED.",
    tag: 'sessions',
    auth: 'apiKey',
    scopeSource: 'fields',
    input: session.SnapshotInputSchema,
    data: session.SnapshotDataSchema,
    successStatus: 200,
    mcp: [{ name: 'snapshot_session', description: "Read a session's latest snapshot." }],
    featureFlag: 'MEMORY_SESSION_ENABLED',
    errorCodes: [...tenantCodes, 'SESSION_NOT_FOUND', 'SESSION_SNAPSHOT_NOT_FOUND'],
  }),
  'embeddings.models': op({
    id: 'embeddings.models',
    method: 'GET',
    path: '/embeddings/models',
    summary: 'Embedding models and the resolved selection',
    description:
      'Lists the embedding models and the selection resolved for the scope (workspace default, project override, an optional requested model). Takes an API key or the admin token.',
    tag: 'embeddings',
    auth: 'apiKeyOrSession',
    scopeSource: 'fields',
    input: embeddings.EmbeddingModelsInputSchema,
    data: embeddings.EmbeddingModelsDataSchema,
    successStatus: 200,
    errorCodes: [...tenantCodes, 'EMBEDDING_MODEL_NOT_ALLOWED'],
  }),
  'graph.status.get': op({
    id: 'graph.status.get',
    method: 'GET',
    path: '/graph/status',
    summary: 'Graph counts, health, rollout and alarms',
    description:
      'Reports whether graph memory is on, its health, table counts, rollout, shadow metrics, quality gate, alarms and most connected nodes; the scope is read from the query string.',
    tag: 'graph',
    auth: 'apiKey',
    scopeSource: 'fields',
    input: graphStatus.GraphStatusGetInputSchema,
    data: graphStatus.GraphStatusDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'graph.status.post': op({
    id: 'graph.status.post',
    method: 'POST',
    readOnly: true,
    path: '/graph/status',
    summary: 'Graph counts, health, rollout and alarms',
    description: 'The report of GET /graph/status, with the scope in the body.',
    tag: 'graph',
    auth: 'apiKey',
    scopeSource: 'object',
    input: graphStatus.GraphStatusPostInputSchema,
    data: graphStatus.GraphStatusDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'graph.trace': op({
    id: 'graph.trace',
    method: 'POST',
    readOnly: true,
    path: '/graph/trace',
    summary: 'Explain a retrieval: strategy, tiers and the rank and source of every recalled memory',
    description:
      'Runs a retrieval as context/get does and explains it: the strategy requested and applied, the rule, working and long-term tiers, and the rank and source (baseline or graph expansion) of every recalled memory. Accepts the legacy strategies baseline and hybrid_graph.',
    tag: 'graph',
    auth: 'apiKey',
    scopeSource: 'object',
    input: context.GraphTraceInputSchema,
    data: context.GraphTraceDataSchema,
    successStatus: 200,
    mcp: [
      { name: 'trace_graph', description: 'Explain a retrieval: strategy, tiers, and why each memory was recalled.' },
    ],
    errorCodes: tenantCodes,
  }),
  'graph.rollout.get': op({
    id: 'graph.rollout.get',
    method: 'GET',
    path: '/graph/rollout',
    summary: 'Read the rollout, quality gate and plan (may apply autopilot)',
    description:
      'Reads the rollout mode, quality gate, shadow metrics, rollout plan and retrieval policy of the scope; may apply an autopilot promotion, which the plan reports.',
    tag: 'graph',
    auth: 'apiKey',
    scopeSource: 'fields',
    input: rollout.RolloutGetInputSchema,
    data: rollout.RolloutDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'graph.rollout.post': op({
    id: 'graph.rollout.post',
    method: 'POST',
    path: '/graph/rollout',
    summary: 'Set the rollout mode',
    description:
      'Sets the rollout mode (off, shadow or canary); canary answers 409 CANARY_ROLLOUT_BLOCKED while the quality gate blocks it.',
    tag: 'graph',
    auth: 'apiKey',
    scopeSource: 'object',
    input: rollout.RolloutSetInputSchema,
    data: rollout.RolloutDataSchema,
    successStatus: 200,
    errorCodes: [...tenantCodes, 'CANARY_ROLLOUT_BLOCKED'],
  }),
  'graph.rollout.patch': op({
    id: 'graph.rollout.patch',
    method: 'PATCH',
    path: '/graph/rollout',
    summary: 'Set the rollout mode',
    description: 'The same as POST /graph/rollout.',
    tag: 'graph',
    auth: 'apiKey',
    scopeSource: 'object',
    input: rollout.RolloutSetInputSchema,
    data: rollout.RolloutDataSchema,
    successStatus: 200,
    errorCodes: [...tenantCodes, 'CANARY_ROLLOUT_BLOCKED'],
  }),
  'management.keys.get': op({
    id: 'management.keys.get',
    method: 'GET',
    path: '/management/keys',
    summary: 'Key status and inventory',
    description:
      "Key status and inventory of the caller's workspace. Takes the admin token only: an API key answers 403 OPERATOR_CREDENTIAL_REQUIRED.",
    tag: 'management',
    auth: 'management',
    scopeSource: 'none',
    input: management.KeysGetInputSchema,
    data: management.KeysGetDataSchema,
    successStatus: 200,
  }),
  'management.keys.post': op({
    id: 'management.keys.post',
    method: 'POST',
    path: '/management/keys',
    summary: 'Create an API key with an expiry; the key is shown once',
    description:
      'Creates an additional API key expiring at `expiresAt` (1 minute to 365 days ahead); the new key is in the answer, once. Takes the admin token only.',
    tag: 'management',
    auth: 'management',
    scopeSource: 'none',
    input: management.KeysCreateInputSchema,
    data: management.KeysCreateDataSchema,
    successStatus: 200,
  }),
  'management.keys.delete': op({
    id: 'management.keys.delete',
    method: 'DELETE',
    path: '/management/keys',
    summary: 'Revoke all keys, or one with keyId',
    description: 'Revokes every key of the workspace, or only `keyId`. Takes the admin token only.',
    tag: 'management',
    auth: 'management',
    scopeSource: 'none',
    input: management.KeysRevokeInputSchema,
    data: management.KeysRevokeDataSchema,
    successStatus: 200,
    destructive: true,
    errorCodes: ['KEY_NOT_FOUND'],
  }),
  'management.tenants.get': op({
    id: 'management.tenants.get',
    method: 'GET',
    path: '/management/tenant-overrides',
    summary: 'List tenant database mappings',
    description:
      'Lists the tenant database mappings of the workspace; `tenantId` narrows the list to one. Takes an API key or the admin token.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'subject',
    input: management.TenantsListInputSchema,
    data: management.TenantsListDataSchema,
    successStatus: 200,
  }),
  'management.tenants.post': op({
    id: 'management.tenants.post',
    method: 'POST',
    path: '/management/tenant-overrides',
    summary: 'Create or update a tenant database mapping (provision or attach)',
    description:
      "Creates or updates the mapping of `tenantId` to a database: `provision` makes one, `attach` connects an existing libSQL database. `tenantId` names the tenant managed, not the caller's scope.",
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'subject',
    input: management.TenantUpsertInputSchema,
    data: management.TenantUpsertDataSchema,
    successStatus: 200,
    errorCodes: ['TENANT_DATABASE_UNREACHABLE'],
  }),
  'management.tenants.delete': op({
    id: 'management.tenants.delete',
    method: 'DELETE',
    path: '/management/tenant-overrides',
    summary: 'Disable a tenant mapping',
    description: 'Disables the mapping of `tenantId`.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'subject',
    input: management.TenantDisableInputSchema,
    data: management.TenantDisableDataSchema,
    successStatus: 200,
    destructive: true,
    errorCodes: ['TENANT_NOT_FOUND'],
  }),
  'management.embeddings.usage': op({
    id: 'management.embeddings.usage',
    method: 'GET',
    path: '/management/embeddings/usage',
    summary: 'Embedding usage for a month, with a breakdown',
    description:
      'Embedding requests, tokens and cost for a month, with a breakdown by tenant, project, model and provider.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'fields',
    input: embeddings.EmbeddingsUsageInputSchema,
    data: embeddings.EmbeddingsUsageDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'management.embeddings.backfill.get': op({
    id: 'management.embeddings.backfill.get',
    method: 'GET',
    path: '/management/embeddings/backfill',
    summary: 'Embedding backfill status',
    description: 'Progress of the embedding backfill for the scope and model.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'fields',
    input: embeddings.BackfillGetInputSchema,
    data: embeddings.BackfillDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'management.embeddings.backfill.post': op({
    id: 'management.embeddings.backfill.post',
    method: 'POST',
    path: '/management/embeddings/backfill',
    summary: 'Run a backfill batch, or pause or resume the backfill',
    description: 'Runs one backfill batch (`action: run`), or pauses or resumes the backfill.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'object',
    input: embeddings.BackfillPostInputSchema,
    data: embeddings.BackfillDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'management.embeddings.observability': op({
    id: 'management.embeddings.observability',
    method: 'GET',
    path: '/management/embeddings/observability',
    summary: 'Embedding queue, worker, backfill, retrieval, cost, SLOs and alarms',
    description:
      'Embedding queue, worker, backfill, retrieval and cost figures over a window, with SLOs, alarms and an overall health.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'fields',
    input: observability.EmbeddingsObservabilityInputSchema,
    data: observability.EmbeddingsObservabilityDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'management.memory.observability': op({
    id: 'management.memory.observability',
    method: 'GET',
    path: '/management/memory/observability',
    summary: 'Memory lifecycle, compaction, consolidation and contradiction figures',
    description:
      'Memory lifecycle counts, compaction triggers, consolidation runs and the contradiction trend over a window, with alarms and an overall health.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'fields',
    input: observability.MemoryObservabilityInputSchema,
    data: observability.MemoryObservabilityDataSchema,
    successStatus: 200,
    errorCodes: tenantCodes,
  }),
  'management.memory.evalReplay': op({
    id: 'management.memory.evalReplay',
    method: 'POST',
    path: '/management/memory/eval/replay',
    summary: 'Deterministic replay scoring of extraction, compaction retention and triggers',
    description:
      'Scores the scenarios in the request deterministically (extraction F1, compaction retention, trigger accuracy) against pass criteria.',
    tag: 'management',
    auth: 'apiKeyOrSession',
    scopeSource: 'fields',
    input: evalReplay.EvalReplayInputSchema,
    data: evalReplay.EvalReplayDataSchema,
    successStatus: 200,
    createsTenant: false,
  }),
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
/** The parsed input of an operation (defaults applied). */
export type OperationInput<Id extends OperationId> = z.output<Operations[Id]['input']>;
/** What a caller may send to an operation (defaults optional). */
export type OperationRequest<Id extends OperationId> = z.input<Operations[Id]['input']>;
/** The envelope `data` of an operation. */
export type OperationData<Id extends OperationId> = z.output<Operations[Id]['data']>;

/** Every operation as a list. */
export const operationList: readonly OperationDefinition[] = Object.values(operations);

/** The codes every authenticated route can give, besides its own. */
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
];

/** All codes an operation can answer with: the common ones for its credential, then its own. */
export function operationErrorCodes(operation: OperationDefinition): ErrorCode[] {
  const common: ErrorCode[] = operation.auth === 'none' ? ['RATE_LIMITED', 'INTERNAL_ERROR'] : [...COMMON_ERROR_CODES];
  // A route that takes the admin token only refuses an API key with its own code.
  const operatorOnly = operation.auth !== 'none' && !AUTH_CREDENTIALS[operation.auth].includes('apiKey');
  if (operatorOnly) common.push('OPERATOR_CREDENTIAL_REQUIRED');
  return [...new Set([...common, ...operation.errorCodes])];
}

/** Fills `{name}` path parameters. */
export function buildPath(operation: OperationDefinition, params: Record<string, string>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
