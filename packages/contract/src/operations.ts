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

/** Who may call a route. `management`: the admin token or an API key of the same owner (DESIGN 9). */
export type AuthKind = 'none' | 'apiKey' | 'apiKeyOrSession' | 'management';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One route+method of the contract. */
export interface OperationDefinition<Input extends z.ZodType = z.ZodType, Data extends z.ZodType = z.ZodType> {
  id: string;
  method: HttpMethod;
  /** Relative to `API_PREFIX`; `{name}` marks a path parameter. */
  path: string;
  summary: string;
  auth: AuthKind;
  /** Where the input comes from: the JSON body, or the query string (GET/DELETE). Path parameters merge in. */
  inputLocation: 'body' | 'query';
  pathParams: readonly string[];
  input: Input;
  data: Data;
  successStatus: 200 | 201;
  /** Other success statuses a route may give (promote: 200 on update). */
  alternateStatuses?: readonly number[];
  featureFlag?: FeatureFlag;
  mcpTool?: string;
  /** Repeating the call cannot change state twice (every GET, and POST routes that only read): safe to retry. */
  readOnly: boolean;
  /** Codes the route can answer with besides the pipeline's common ones. */
  errorCodes: readonly ErrorCode[];
  /** Fields whose validation failure has a specific code. */
  fieldCodes?: readonly FieldCodeRule[];
}

function op<const Input extends z.ZodType, const Data extends z.ZodType>(
  definition: Omit<OperationDefinition<Input, Data>, 'pathParams' | 'errorCodes' | 'readOnly'> & {
    pathParams?: readonly string[];
    errorCodes?: readonly ErrorCode[];
    readOnly?: boolean;
  },
): OperationDefinition<Input, Data> {
  return { pathParams: [], errorCodes: [], readOnly: definition.method === 'GET', ...definition };
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
    auth: 'none',
    inputLocation: 'query',
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
    auth: 'apiKey',
    inputLocation: 'body',
    input: context.ContextGetInputSchema,
    data: context.ContextGetDataSchema,
    successStatus: 200,
    mcpTool: 'get_context',
    errorCodes: tenantCodes,
  }),
  'memories.add': op({
    id: 'memories.add',
    method: 'POST',
    path: '/memories/add',
    summary: 'Store a memory',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.AddMemoryInputSchema,
    data: memory.AddMemoryDataSchema,
    successStatus: 201,
    mcpTool: 'add_memory',
    errorCodes: [...tenantCodes, 'EMBEDDING_MODEL_NOT_ALLOWED'],
  }),
  'memories.search': op({
    id: 'memories.search',
    method: 'POST',
    readOnly: true,
    path: '/memories/search',
    summary: 'Search memories',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.SearchMemoriesInputSchema,
    data: memory.SearchMemoriesDataSchema,
    successStatus: 200,
    mcpTool: 'search_memories',
    errorCodes: [...tenantCodes, 'QUERY_REQUIRED'],
    fieldCodes: [{ field: 'query', code: 'QUERY_REQUIRED', when: 'missing' }],
  }),
  'memories.list': op({
    id: 'memories.list',
    method: 'POST',
    readOnly: true,
    path: '/memories/list',
    summary: 'List memories, newest first',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.ListMemoriesInputSchema,
    data: memory.ListMemoriesDataSchema,
    successStatus: 200,
    mcpTool: 'list_memories',
    errorCodes: tenantCodes,
  }),
  'memories.edit': op({
    id: 'memories.edit',
    method: 'POST',
    path: '/memories/edit',
    summary: 'Edit a memory',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.EditMemoryInputSchema,
    data: memory.EditMemoryDataSchema,
    successStatus: 200,
    mcpTool: 'edit_memory',
    errorCodes: [...tenantCodes, 'MEMORY_NOT_FOUND', 'EMBEDDING_MODEL_NOT_ALLOWED'],
  }),
  'memories.forget': op({
    id: 'memories.forget',
    method: 'POST',
    path: '/memories/forget',
    summary: 'Soft-delete a memory',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.ForgetMemoryInputSchema,
    data: memory.ForgetMemoryDataSchema,
    successStatus: 200,
    mcpTool: 'forget_memory',
    errorCodes: [...tenantCodes, 'MEMORY_NOT_FOUND'],
  }),
  'memories.bulkForget': op({
    id: 'memories.bulkForget',
    method: 'POST',
    path: '/memories/bulk-forget',
    summary: 'Soft-delete every memory matching filters (or all), with a dry run',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.BulkForgetInputSchema,
    data: memory.BulkForgetDataSchema,
    successStatus: 200,
    mcpTool: 'bulk_forget_memories',
    errorCodes: tenantCodes,
  }),
  'memories.vacuum': op({
    id: 'memories.vacuum',
    method: 'POST',
    path: '/memories/vacuum',
    summary: 'Permanently purge soft-deleted memories in scope',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.VacuumInputSchema,
    data: memory.VacuumDataSchema,
    successStatus: 200,
    mcpTool: 'vacuum_memories',
    errorCodes: tenantCodes,
  }),
  'memories.consolidate': op({
    id: 'memories.consolidate',
    method: 'POST',
    path: '/memories/consolidate',
    summary: 'Merge duplicates and supersede stale truths',
    auth: 'apiKey',
    inputLocation: 'body',
    input: memory.ConsolidateInputSchema,
    data: memory.ConsolidateDataSchema,
    successStatus: 200,
    featureFlag: 'MEMORY_CONSOLIDATION_ENABLED',
    mcpTool: 'consolidate_memories',
    errorCodes: [...tenantCodes, 'MEMORY_CONSOLIDATION_DISABLED'],
  }),
  'skills.upsert': op({
    id: 'skills.upsert',
    method: 'POST',
    path: '/skills/files/upsert',
    summary: 'Create or update a skill file',
    auth: 'apiKey',
    inputLocation: 'body',
    input: skill.UpsertSkillFileInputSchema,
    data: skill.UpsertSkillFileDataSchema,
    successStatus: 200,
    mcpTool: 'upsert_skill_file',
    errorCodes: tenantCodes,
  }),
  'skills.list': op({
    id: 'skills.list',
    method: 'POST',
    readOnly: true,
    path: '/skills/files/list',
    summary: 'List skill files',
    auth: 'apiKey',
    inputLocation: 'body',
    input: skill.ListSkillFilesInputSchema,
    data: skill.ListSkillFilesDataSchema,
    successStatus: 200,
    mcpTool: 'list_skill_files',
    errorCodes: tenantCodes,
  }),
  'skills.delete': op({
    id: 'skills.delete',
    method: 'POST',
    path: '/skills/files/delete',
    summary: 'Soft-delete a skill file',
    auth: 'apiKey',
    inputLocation: 'body',
    input: skill.DeleteSkillFileInputSchema,
    data: skill.DeleteSkillFileDataSchema,
    successStatus: 200,
    mcpTool: 'delete_skill_file',
    errorCodes: [...tenantCodes, 'SKILL_FILE_NOT_FOUND'],
  }),
  'skills.promote': op({
    id: 'skills.promote',
    method: 'POST',
    path: '/skills/files/promote',
    summary: 'Promote a session snapshot into a procedural skill file',
    auth: 'apiKey',
    inputLocation: 'body',
    input: skill.PromoteSkillFileInputSchema,
    data: skill.PromoteSkillFileDataSchema,
    successStatus: 201,
    alternateStatuses: [200],
    featureFlag: 'MEMORY_PROCEDURAL_ENABLED',
    mcpTool: 'promote_skill_file',
    errorCodes: [
      ...tenantCodes,
      'MEMORY_PROCEDURAL_DISABLED',
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
    auth: 'apiKey',
    inputLocation: 'body',
    input: session.StartSessionInputSchema,
    data: session.StartSessionDataSchema,
    successStatus: 201,
    featureFlag: 'MEMORY_SESSION_ENABLED',
    mcpTool: 'start_session',
    errorCodes: [...tenantCodes, 'MEMORY_SESSION_DISABLED'],
  }),
  'sessions.checkpoint': op({
    id: 'sessions.checkpoint',
    method: 'POST',
    path: '/sessions/checkpoint',
    summary: 'Append an event to an active session',
    auth: 'apiKey',
    inputLocation: 'body',
    input: session.CheckpointInputSchema,
    data: session.CheckpointDataSchema,
    successStatus: 200,
    featureFlag: 'MEMORY_SESSION_ENABLED',
    mcpTool: 'checkpoint_session',
    errorCodes: [
      ...tenantCodes,
      'MEMORY_SESSION_DISABLED',
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
    auth: 'apiKey',
    inputLocation: 'body',
    input: session.EndSessionInputSchema,
    data: session.EndSessionDataSchema,
    successStatus: 200,
    featureFlag: 'MEMORY_SESSION_ENABLED',
    mcpTool: 'end_session',
    errorCodes: [
      ...tenantCodes,
      'MEMORY_SESSION_DISABLED',
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
    auth: 'apiKey',
    inputLocation: 'query',
    pathParams: ['sessionId'],
    input: session.SnapshotInputSchema,
    data: session.SnapshotDataSchema,
    successStatus: 200,
    featureFlag: 'MEMORY_SESSION_ENABLED',
    mcpTool: 'snapshot_session',
    errorCodes: [...tenantCodes, 'MEMORY_SESSION_DISABLED', 'SESSION_NOT_FOUND', 'SESSION_SNAPSHOT_NOT_FOUND'],
  }),
  'embeddings.models': op({
    id: 'embeddings.models',
    method: 'GET',
    path: '/embeddings/models',
    summary: 'Embedding models and the resolved selection',
    auth: 'apiKeyOrSession',
    inputLocation: 'query',
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
    auth: 'apiKey',
    inputLocation: 'query',
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
    auth: 'apiKey',
    inputLocation: 'body',
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
    auth: 'apiKey',
    inputLocation: 'body',
    input: context.GraphTraceInputSchema,
    data: context.GraphTraceDataSchema,
    successStatus: 200,
    mcpTool: 'trace_graph',
    errorCodes: tenantCodes,
  }),
  'graph.rollout.get': op({
    id: 'graph.rollout.get',
    method: 'GET',
    path: '/graph/rollout',
    summary: 'Read the rollout, quality gate and plan (may apply autopilot)',
    auth: 'apiKey',
    inputLocation: 'query',
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
    auth: 'apiKey',
    inputLocation: 'body',
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
    auth: 'apiKey',
    inputLocation: 'body',
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
    auth: 'management',
    inputLocation: 'query',
    input: management.KeysGetInputSchema,
    data: management.KeysGetDataSchema,
    successStatus: 200,
  }),
  'management.keys.post': op({
    id: 'management.keys.post',
    method: 'POST',
    path: '/management/keys',
    summary: 'Create an API key with an expiry; the key is shown once',
    auth: 'management',
    inputLocation: 'body',
    input: management.KeysCreateInputSchema,
    data: management.KeysCreateDataSchema,
    successStatus: 201,
  }),
  'management.keys.delete': op({
    id: 'management.keys.delete',
    method: 'DELETE',
    path: '/management/keys',
    summary: 'Revoke all keys, or one with keyId',
    auth: 'management',
    inputLocation: 'query',
    input: management.KeysRevokeInputSchema,
    data: management.KeysRevokeDataSchema,
    successStatus: 200,
    errorCodes: ['KEY_NOT_FOUND'],
  }),
  'management.tenants.get': op({
    id: 'management.tenants.get',
    method: 'GET',
    path: '/management/tenant-overrides',
    summary: 'List tenant database mappings',
    auth: 'apiKeyOrSession',
    inputLocation: 'query',
    input: management.TenantsListInputSchema,
    data: management.TenantsListDataSchema,
    successStatus: 200,
  }),
  'management.tenants.post': op({
    id: 'management.tenants.post',
    method: 'POST',
    path: '/management/tenant-overrides',
    summary: 'Create or update a tenant database mapping (provision or attach)',
    auth: 'apiKeyOrSession',
    inputLocation: 'body',
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
    auth: 'apiKeyOrSession',
    inputLocation: 'query',
    input: management.TenantDisableInputSchema,
    data: management.TenantDisableDataSchema,
    successStatus: 200,
    errorCodes: ['TENANT_NOT_FOUND'],
  }),
  'management.embeddings.usage': op({
    id: 'management.embeddings.usage',
    method: 'GET',
    path: '/management/embeddings/usage',
    summary: 'Embedding usage for a month, with a breakdown',
    auth: 'apiKeyOrSession',
    inputLocation: 'query',
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
    auth: 'apiKeyOrSession',
    inputLocation: 'query',
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
    auth: 'apiKeyOrSession',
    inputLocation: 'body',
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
    auth: 'apiKeyOrSession',
    inputLocation: 'query',
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
    auth: 'apiKeyOrSession',
    inputLocation: 'query',
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
    auth: 'apiKeyOrSession',
    inputLocation: 'body',
    input: evalReplay.EvalReplayInputSchema,
    data: evalReplay.EvalReplayDataSchema,
    successStatus: 200,
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

/** All codes an operation can answer with. */
export function operationErrorCodes(operation: OperationDefinition): ErrorCode[] {
  const common: ErrorCode[] = operation.auth === 'none' ? ['RATE_LIMITED', 'INTERNAL_ERROR'] : [...COMMON_ERROR_CODES];
  return [...new Set([...common, ...operation.errorCodes])];
}

/** Fills `{name}` path parameters. */
export function buildPath(operation: OperationDefinition, params: Record<string, string>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
