import { describe, expect, it } from 'vitest';
import {
  BACKFILL_ACTIONS,
  BackfillActionSchema,
  CheckpointKindSchema,
  CheckpointRoleSchema,
  ContextModeSchema,
  EDGE_TYPES,
  EdgeTypeSchema,
  EMBEDDING_MODEL_SOURCES,
  EmbeddingConfigSourceSchema,
  EmbeddingModelSourceSchema,
  EVAL_STATUSES,
  EvalStatusSchema,
  FEATURE_FLAGS,
  GRAPH_HEALTH_VALUES,
  GraphHealthSchema,
  HEALTH_VALUES,
  HealthSchema,
  NODE_TYPES,
  NodeTypeSchema,
  QUALITY_STATUSES,
  QualityStatusSchema,
  RETRIEVAL_SOURCES,
  RetrievalSourceSchema,
  RolloutModeSchema,
  SESSION_END_STATUSES,
  SESSION_STATUSES,
  SessionEndStatusSchema,
  SessionStatusSchema,
  SNAPSHOT_TRIGGERS,
  SnapshotTriggerSchema,
  TENANT_STATUSES,
  TenantModeSchema,
  TenantStatusSchema,
  TRIGGER_HINTS,
  TriggerHintSchema,
} from '../src/enums.js';
import {
  CHECKPOINT_KINDS,
  CHECKPOINT_ROLES,
  CONTEXT_MODES,
  EMBEDDING_CONFIG_SOURCES,
  isStrategyAlias,
  MEMORY_LAYERS,
  MEMORY_TYPES,
  MemoryLayerSchema,
  MemoryTypeSchema,
  normalizeStrategy,
  operations,
  ROLLOUT_MODES,
  STRATEGIES,
  STRATEGY_ALIASES,
  STRATEGY_UPSTREAM_NAMES,
  TENANT_MODES,
  zodErrorToApiError,
} from '../src/index.js';
import { StrategyInputSchema, StrategySchema } from '../src/strategy.js';

/** The part of a zod enum these tests use. */
interface EnumSchema {
  options: readonly string[];
  safeParse: (value: unknown) => { success: boolean };
}

interface Enumeration {
  name: string;
  schema: EnumSchema;
  /** The exported constant the schema is built from. */
  constant: readonly string[];
  /** Every value, written out: from the contract where it names them, else from docs/architecture.md. */
  values: readonly string[];
}

const enumerations: Enumeration[] = [
  {
    name: 'memory type',
    schema: MemoryTypeSchema,
    constant: MEMORY_TYPES,
    values: ['rule', 'decision', 'fact', 'note', 'skill'],
  },
  {
    name: 'memory layer',
    schema: MemoryLayerSchema,
    constant: MEMORY_LAYERS,
    values: ['rule', 'working', 'long_term'],
  },
  {
    name: 'context mode',
    schema: ContextModeSchema,
    constant: CONTEXT_MODES,
    values: ['all', 'working', 'long_term', 'rules_only'],
  },
  { name: 'strategy', schema: StrategySchema, constant: STRATEGIES, values: ['lexical', 'hybrid'] },
  {
    name: 'strategy input (with deprecated aliases)',
    schema: StrategyInputSchema,
    constant: [...STRATEGIES, ...Object.keys(STRATEGY_ALIASES), ...Object.keys(STRATEGY_UPSTREAM_NAMES)],
    values: ['lexical', 'hybrid', 'baseline', 'hybrid_graph', 'semantic'],
  },
  {
    name: 'retrieval source',
    schema: RetrievalSourceSchema,
    constant: RETRIEVAL_SOURCES,
    values: ['lexical', 'semantic', 'hybrid', 'recency', 'graph_expansion', 'rule'],
  },
  {
    name: 'checkpoint role',
    schema: CheckpointRoleSchema,
    constant: CHECKPOINT_ROLES,
    values: ['user', 'assistant', 'system', 'tool'],
  },
  {
    name: 'checkpoint kind',
    schema: CheckpointKindSchema,
    constant: CHECKPOINT_KINDS,
    values: ['message', 'summary', 'decision', 'tool_call', 'tool_result', 'note'],
  },
  {
    name: 'session status',
    schema: SessionStatusSchema,
    constant: SESSION_STATUSES,
    values: ['active', 'closed', 'compacted'],
  },
  {
    name: 'session end status',
    schema: SessionEndStatusSchema,
    constant: SESSION_END_STATUSES,
    values: ['closed', 'compacted'],
  },
  {
    name: 'snapshot trigger',
    schema: SnapshotTriggerSchema,
    constant: SNAPSHOT_TRIGGERS,
    values: ['end', 'compacted'],
  },
  { name: 'trigger hint', schema: TriggerHintSchema, constant: TRIGGER_HINTS, values: ['count', 'time', 'semantic'] },
  { name: 'rollout mode', schema: RolloutModeSchema, constant: ROLLOUT_MODES, values: ['off', 'shadow', 'canary'] },
  { name: 'tenant mode', schema: TenantModeSchema, constant: TENANT_MODES, values: ['provision', 'attach'] },
  {
    name: 'tenant status',
    schema: TenantStatusSchema,
    constant: TENANT_STATUSES,
    values: ['ready', 'provisioning', 'disabled', 'error'],
  },
  {
    name: 'backfill action',
    schema: BackfillActionSchema,
    constant: BACKFILL_ACTIONS,
    values: ['run', 'pause', 'resume'],
  },
  { name: 'health', schema: HealthSchema, constant: HEALTH_VALUES, values: ['healthy', 'degraded', 'critical'] },
  { name: 'graph health', schema: GraphHealthSchema, constant: GRAPH_HEALTH_VALUES, values: ['ok', 'schema_missing'] },
  {
    name: 'edge type',
    schema: EdgeTypeSchema,
    constant: EDGE_TYPES,
    values: [
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
    ],
  },
  {
    name: 'node type',
    schema: NodeTypeSchema,
    constant: NODE_TYPES,
    values: ['memory', 'topic', 'category', 'repo', 'user', 'entity'],
  },
  {
    name: 'embedding model source',
    schema: EmbeddingModelSourceSchema,
    constant: EMBEDDING_MODEL_SOURCES,
    values: ['request', 'project_override', 'workspace_default'],
  },
  {
    name: 'embeddings config source (the memories.sh vocabulary)',
    schema: EmbeddingConfigSourceSchema,
    constant: EMBEDDING_CONFIG_SOURCES,
    values: ['request', 'project', 'workspace', 'system_default'],
  },
  { name: 'eval status', schema: EvalStatusSchema, constant: EVAL_STATUSES, values: ['pass', 'warn', 'fail'] },
  {
    name: 'quality status',
    schema: QualityStatusSchema,
    constant: QUALITY_STATUSES,
    values: ['pass', 'blocked', 'insufficient_data'],
  },
];

describe.each(enumerations)('$name enumeration', ({ schema, constant, values }) => {
  it('has exactly the expected values', () => {
    expect([...schema.options].sort()).toEqual([...values].sort());
    expect([...constant].sort()).toEqual([...values].sort());
  });

  it.each(values)('accepts %j', (value) => {
    expect(schema.safeParse(value).success).toBe(true);
  });

  const firstValue = values[0] ?? '';
  it.each([
    'unknown',
    '',
    firstValue.toUpperCase(),
    `${firstValue} `,
    ` ${firstValue}`,
    1,
    null,
    undefined,
    [firstValue],
  ])('rejects %j', (value) => {
    expect(schema.safeParse(value).success).toBe(false);
  });
});

describe('feature flags', () => {
  it('are the four contract flags plus the opt-in file-mode flag', () => {
    expect([...FEATURE_FLAGS].sort()).toEqual(
      [
        'MEMORY_COMPACTION_ENABLED',
        'MEMORY_CONSOLIDATION_ENABLED',
        'MEMORY_FILE_MODE_ENABLED',
        'MEMORY_PROCEDURAL_ENABLED',
        'MEMORY_SESSION_ENABLED',
      ].sort(),
    );
  });
});

describe('strategies and their deprecated aliases', () => {
  it.each([
    ['baseline', 'lexical'],
    ['hybrid_graph', 'hybrid'],
    ['lexical', 'lexical'],
    ['hybrid', 'hybrid'],
  ] as const)('normalizeStrategy(%j) is %j', (input, expected) => {
    expect(normalizeStrategy(input)).toBe(expected);
  });

  it('normalizeStrategy keeps undefined (no strategy requested)', () => {
    expect(normalizeStrategy(undefined)).toBeUndefined();
  });

  it('isStrategyAlias is true only for the deprecated names', () => {
    expect(isStrategyAlias('baseline')).toBe(true);
    expect(isStrategyAlias('hybrid_graph')).toBe(true);
    expect(isStrategyAlias('lexical')).toBe(false);
    expect(isStrategyAlias('hybrid')).toBe(false);
    expect(isStrategyAlias('toString')).toBe(false);
  });

  it.each(['context.get', 'graph.trace', 'memories.search'] as const)(
    '%s accepts the aliases and leaves normalizing to the server',
    (operationId) => {
      const schema = operations[operationId].input;
      // `semantic` is memories.sh's name, accepted (hybrid here: normalizeStrategy).
      for (const strategy of ['lexical', 'hybrid', 'baseline', 'hybrid_graph', 'semantic']) {
        expect(schema.parse({ query: 'deploy', strategy })).toMatchObject({ strategy });
      }
      expect(normalizeStrategy('semantic')).toBe('hybrid');
      expect(isStrategyAlias('semantic')).toBe(false);
      expect(schema.safeParse({ query: 'deploy', strategy: 'vector' }).success).toBe(false);
    },
  );
});

describe('enumerations inside request schemas', () => {
  it.each([
    { operation: 'memories.add', input: { content: 'n', type: 'memo' }, field: 'type' },
    { operation: 'memories.add', input: { content: 'n', layer: 'short_term' }, field: 'layer' },
    { operation: 'context.get', input: { mode: 'everything' }, field: 'mode' },
    { operation: 'graph.rollout.post', input: { mode: 'on' }, field: 'mode' },
    { operation: 'graph.rollout.patch', input: { mode: 'full' }, field: 'mode' },
    { operation: 'management.embeddings.backfill.post', input: { action: 'stop' }, field: 'action' },
    { operation: 'management.tenants.post', input: { tenantId: 'acme', mode: 'borrow' }, field: 'mode' },
    { operation: 'sessions.checkpoint', input: { sessionId: 's1', content: 'c', role: 'robot' }, field: 'role' },
    { operation: 'sessions.checkpoint', input: { sessionId: 's1', content: 'c', kind: 'chat' }, field: 'kind' },
  ] as const)('$operation rejects an unknown $field with INVALID_REQUEST', ({ operation, input, field }) => {
    const definition = operations[operation];
    const result = definition.input.safeParse(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(zodErrorToApiError(result.error, input, definition.fieldCodes)).toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
      details: { field },
    });
  });

  it.each(['off', 'shadow', 'canary'])('graph/rollout accepts mode %j', (mode) => {
    expect(operations['graph.rollout.post'].input.parse({ mode })).toEqual({ mode });
    expect(operations['graph.rollout.patch'].input.parse({ mode })).toEqual({ mode });
  });
});
