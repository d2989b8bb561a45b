import * as z from 'zod';

/** Memory types (docs/architecture.md#retrieval). */
export const MEMORY_TYPES = ['rule', 'decision', 'fact', 'note', 'skill'] as const;
export const MemoryTypeSchema = z.enum(MEMORY_TYPES);
export type MemoryType = z.infer<typeof MemoryTypeSchema>;

/** Memory layers (docs/architecture.md#retrieval): default `rule` for type rule, else `long_term`. */
export const MEMORY_LAYERS = ['rule', 'working', 'long_term'] as const;
export const MemoryLayerSchema = z.enum(MEMORY_LAYERS);
export type MemoryLayer = z.infer<typeof MemoryLayerSchema>;

/** The layer of a memory whose request names none: `rule` for a rule, else `long_term`. */
export function defaultLayer(type: MemoryType): MemoryLayer {
  return type === 'rule' ? 'rule' : 'long_term';
}

/** Context modes of `context/get`. */
export const CONTEXT_MODES = ['all', 'working', 'long_term', 'rules_only'] as const;
export const ContextModeSchema = z.enum(CONTEXT_MODES);
export type ContextMode = z.infer<typeof ContextModeSchema>;

/** Where a retrieved memory came from. */
export const RETRIEVAL_SOURCES = ['lexical', 'semantic', 'hybrid', 'recency', 'graph_expansion', 'rule'] as const;
export const RetrievalSourceSchema = z.enum(RETRIEVAL_SOURCES);

/** Session checkpoint roles. */
export const CHECKPOINT_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
export const CheckpointRoleSchema = z.enum(CHECKPOINT_ROLES);
export type CheckpointRole = z.infer<typeof CheckpointRoleSchema>;

/** Session checkpoint kinds. */
export const CHECKPOINT_KINDS = ['message', 'summary', 'decision', 'tool_call', 'tool_result', 'note'] as const;
export const CheckpointKindSchema = z.enum(CHECKPOINT_KINDS);
export type CheckpointKind = z.infer<typeof CheckpointKindSchema>;

/** Session states. */
export const SESSION_STATUSES = ['active', 'closed', 'compacted'] as const;
export const SessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** The statuses `sessions/end` accepts. */
export const SESSION_END_STATUSES = ['closed', 'compacted'] as const;
export const SessionEndStatusSchema = z.enum(SESSION_END_STATUSES);
export type SessionEndStatus = z.infer<typeof SessionEndStatusSchema>;

/** What wrote a snapshot. */
export const SNAPSHOT_TRIGGERS = ['end', 'compacted'] as const;
export const SnapshotTriggerSchema = z.enum(SNAPSHOT_TRIGGERS);

/** Client-side compaction trigger hints (docs/architecture.md#session-lifecycle). */
export const TRIGGER_HINTS = ['count', 'time', 'semantic'] as const;
export const TriggerHintSchema = z.enum(TRIGGER_HINTS);
export type TriggerHint = z.infer<typeof TriggerHintSchema>;

/** Graph rollout modes. */
export const ROLLOUT_MODES = ['off', 'shadow', 'canary'] as const;
export const RolloutModeSchema = z.enum(ROLLOUT_MODES);
export type RolloutMode = z.infer<typeof RolloutModeSchema>;

/** Tenant mapping modes. */
export const TENANT_MODES = ['provision', 'attach'] as const;
export const TenantModeSchema = z.enum(TENANT_MODES);
export type TenantMode = z.infer<typeof TenantModeSchema>;

/** Tenant mapping states. */
export const TENANT_STATUSES = ['ready', 'provisioning', 'disabled', 'error'] as const;
export const TenantStatusSchema = z.enum(TENANT_STATUSES);
export type TenantStatus = z.infer<typeof TenantStatusSchema>;

/** Embedding backfill actions. */
export const BACKFILL_ACTIONS = ['run', 'pause', 'resume'] as const;
export const BackfillActionSchema = z.enum(BACKFILL_ACTIONS);
export type BackfillAction = z.infer<typeof BackfillActionSchema>;

/** Health values of observability reports. */
export const HEALTH_VALUES = ['healthy', 'degraded', 'critical'] as const;
export const HealthSchema = z.enum(HEALTH_VALUES);
export type Health = z.infer<typeof HealthSchema>;

/** Health values of `graph/status`. */
export const GRAPH_HEALTH_VALUES = ['ok', 'schema_missing'] as const;
export const GraphHealthSchema = z.enum(GRAPH_HEALTH_VALUES);

/** Graph edge types (docs/architecture.md#retrieval). */
export const EDGE_TYPES = [
  'similar_to',
  'supersedes',
  'contradicts',
  'caused_by',
  'depends_on',
  'has_topic',
  'in_category',
  'in_repo',
  'by_user',
  'mentions',
] as const;
export const EdgeTypeSchema = z.enum(EDGE_TYPES);
export type EdgeType = z.infer<typeof EdgeTypeSchema>;

/** Graph node types (docs/architecture.md#retrieval). */
export const NODE_TYPES = ['memory', 'topic', 'category', 'repo', 'user', 'entity'] as const;
export const NodeTypeSchema = z.enum(NODE_TYPES);

/** Where a selected embedding model came from (request > project override > workspace default). */
export const EMBEDDING_MODEL_SOURCES = ['request', 'project_override', 'workspace_default'] as const;
export const EmbeddingModelSourceSchema = z.enum(EMBEDDING_MODEL_SOURCES);
export type EmbeddingModelSource = z.infer<typeof EmbeddingModelSourceSchema>;

/**
 * `config.source` of embeddings/models, in the memories.sh vocabulary: `request`, `project` (a project override),
 * `workspace` (a workspace default set for the owner; this server has none) or `system_default` (the server's
 * MEMORY_EMBEDDING_MODEL). `config.selectionSource` gives the same choice in `EMBEDDING_MODEL_SOURCES`.
 */
export const EMBEDDING_CONFIG_SOURCES = ['request', 'project', 'workspace', 'system_default'] as const;
export const EmbeddingConfigSourceSchema = z.enum(EMBEDDING_CONFIG_SOURCES);
export type EmbeddingConfigSource = z.infer<typeof EmbeddingConfigSourceSchema>;
/** The memories.sh name of each selection source. */
export const EMBEDDING_CONFIG_SOURCE_OF = {
  request: 'request',
  project_override: 'project',
  workspace_default: 'system_default',
} as const satisfies Record<EmbeddingModelSource, EmbeddingConfigSource>;

/** Eval replay case outcomes. */
export const EVAL_STATUSES = ['pass', 'warn', 'fail'] as const;
export const EvalStatusSchema = z.enum(EVAL_STATUSES);

/** Quality gate outcomes. */
export const QUALITY_STATUSES = ['pass', 'blocked', 'insufficient_data'] as const;
export const QualityStatusSchema = z.enum(QUALITY_STATUSES);

/** The contract's feature flags. */
export const FEATURE_FLAGS = [
  'MEMORY_SESSION_ENABLED',
  'MEMORY_COMPACTION_ENABLED',
  'MEMORY_CONSOLIDATION_ENABLED',
  'MEMORY_PROCEDURAL_ENABLED',
  'MEMORY_FILE_MODE_ENABLED',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
