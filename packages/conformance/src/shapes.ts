import * as z from 'zod';

// Response shapes as the HTTP contract v1 document writes them, and no more: every object is loose (a server may
// send more fields; clients ignore them), a field the document names is required, and it is typed only where the
// document gives a type. These are not the reference server's schemas (@memory-service/contract): an
// implementation is checked against the document, not against another implementation.

/** A field the document names without a type: it must be there (null allowed), any value. */
export const present = z.custom<unknown>((value) => value !== undefined, 'missing');

const isoTimestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not an ISO 8601 timestamp');
const integer = z.number().int();

/** Resources › Response envelope: `meta`. */
export const MetaShape = z.looseObject({
  version: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'not a date string'),
  endpoint: z.string().min(1),
  requestId: z.uuid(),
  timestamp: isoTimestamp.refine((value) => /(Z|[+-]00:?00)$/.test(value), 'not UTC'),
});

/** Resources › Response envelope: the error object. */
export const ErrorObjectShape = z.looseObject({
  type: z.string(),
  code: z.string(),
  message: z.string(),
  status: integer,
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export const SuccessEnvelopeShape = z.looseObject({
  ok: z.literal(true),
  data: z.record(z.string(), z.unknown()),
  error: z.null(),
  meta: MetaShape,
});

export const ErrorEnvelopeShape = z.looseObject({
  ok: z.literal(false),
  data: z.null(),
  error: ErrorObjectShape,
  meta: MetaShape,
});

/** Errors: the error type of each status family. */
export function errorTypeForStatus(status: number): string {
  if (status === 401 || status === 403) return 'auth_error';
  if (status === 400 || status === 409) return 'validation_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'internal_error';
  return 'unknown_error';
}

/** GET /health. */
export const HealthShape = z.looseObject({
  status: z.string(),
  service: z.string(),
  schemaVersion: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

/** Graph-expanded memory explainability (`memories[].graph`). */
export const GraphExplainabilityShape = z.looseObject({
  whyIncluded: z.literal('graph_expansion'),
  linkedViaNode: z.string(),
  edgeType: z.string(),
  hopCount: integer,
  confidence: z.number().min(0).max(1),
  seedMemoryId: z.string(),
});

/** Conflict pair (`conflicts[]`). */
export const ConflictPairShape = z.looseObject({
  memoryAId: z.string(),
  memoryBId: z.string(),
  edgeType: z.string(),
  confidence: z.number(),
  explanation: z.string(),
  suggestion: z.string(),
});

const TRACE_FIELDS = [
  'retrievalPolicyDefaultStrategy',
  'retrievalPolicyAppliedStrategy',
  'retrievalPolicySelection',
  'semanticStrategyRequested',
  'semanticStrategyApplied',
  'semanticFallbackTriggered',
  'semanticFallbackReason',
  'graphDepth',
  'graphLimit',
  'rolloutMode',
  'shadowExecuted',
  'baselineCandidates',
  'graphCandidates',
  'graphExpandedCount',
  'conflictCount',
  'totalCandidates',
  'fallbackTriggered',
  'fallbackReason',
] as const;

const looseArray = z.array(z.unknown());
const memoryElement = z.looseObject({ graph: GraphExplainabilityShape.optional() });

/** POST /context/get: data. */
export const ContextShape = z.looseObject({
  mode: z.string(),
  query: present,
  rules: looseArray,
  memories: z.array(memoryElement),
  conflicts: z.array(ConflictPairShape).optional(),
  skillFiles: looseArray,
  workingMemories: looseArray,
  longTermMemories: looseArray,
  trace: z.looseObject(Object.fromEntries(TRACE_FIELDS.map((field) => [field, present]))),
});

/** POST /memories/add: data. */
export const AddMemoryShape = z.looseObject({
  id: z.string().min(1),
  message: z.string(),
  memory: z.record(z.string(), z.unknown()),
  embeddingModel: z.string(),
  embeddingModelSource: z.string(),
});

const recordWithId = z.looseObject({ id: z.string() });

/** POST /memories/search: data. */
export const SearchShape = z.looseObject({
  memories: z.array(recordWithId),
  count: integer,
  trace: z.looseObject({ requestedStrategy: present, appliedStrategy: present }),
});

/** POST /memories/list: data. */
export const ListShape = z.looseObject({ memories: z.array(recordWithId), count: integer });

/** POST /memories/edit: data. */
export const EditShape = z.looseObject({
  id: z.string(),
  updated: z.literal(true),
  message: z.string(),
  embeddingModel: z.string(),
  embeddingModelSource: z.string(),
});

/** POST /memories/forget: data. */
export const ForgetShape = z.looseObject({ id: z.string(), deleted: z.literal(true), message: z.string() });

/** POST /memories/bulk-forget: data of a dry run and of a real one. */
export const BulkForgetDryRunShape = z.looseObject({
  count: integer,
  memories: z.array(z.looseObject({ id: z.string(), type: z.string(), contentPreview: z.string() })),
  message: z.string(),
});
export const BulkForgetShape = z.looseObject({ count: integer, ids: z.array(z.string()), message: z.string() });

/** POST /memories/vacuum: data. */
export const VacuumShape = z.looseObject({ purged: integer, message: z.string() });

/** Resources › Consolidation run, and POST /memories/consolidate: data. */
export const ConsolidationRunShape = z.looseObject({
  id: z.string(),
  scope: present,
  projectId: present,
  userId: present,
  inputCount: integer,
  mergedCount: integer,
  supersededCount: integer,
  conflictedCount: integer,
  model: present,
  createdAt: isoTimestamp,
  metadata: present,
});
export const ConsolidateShape = z.looseObject({
  runId: z.string(),
  message: z.string(),
  run: ConsolidationRunShape,
  winnerMemoryIds: z.array(z.string()),
  supersededMemoryIds: z.array(z.string()),
});

/** Resources › Session, Session event, Session snapshot. */
export const SessionShape = z.looseObject({
  id: z.string(),
  scope: present,
  projectId: present,
  userId: present,
  client: present,
  status: z.enum(['active', 'closed', 'compacted']),
  title: present,
  startedAt: isoTimestamp,
  lastActivityAt: present,
  endedAt: present,
  metadata: present,
});
export const SessionEventShape = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  role: present,
  kind: present,
  content: z.string(),
  tokenCount: present,
  turnIndex: present,
  isMeaningful: present,
  createdAt: isoTimestamp,
});
export const SnapshotShape = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  slug: z.string(),
  sourceTrigger: present,
  transcriptMd: z.string(),
  messageCount: integer,
  createdAt: isoTimestamp,
});
export const SessionStartShape = z.looseObject({ sessionId: z.string(), message: z.string(), session: SessionShape });
export const CheckpointShape = z.looseObject({
  sessionId: z.string(),
  eventId: z.string(),
  message: z.string(),
  event: SessionEventShape,
});
export const SnapshotDataShape = z.looseObject({ sessionId: z.string(), message: z.string(), snapshot: SnapshotShape });

/** Skill files routes: data. */
export const SkillUpsertShape = z.looseObject({
  skillFile: z.record(z.string(), z.unknown()),
  created: z.boolean(),
  message: z.string(),
});
export const SkillListShape = z.looseObject({ skillFiles: looseArray, count: integer });
export const SkillDeleteShape = z.looseObject({ path: z.string(), deleted: z.literal(true), message: z.string() });
export const SkillPromoteShape = z.looseObject({
  skillFile: z.record(z.string(), z.unknown()),
  created: z.boolean(),
  source: z.looseObject({ sessionId: present, snapshotId: present, snapshotSlug: present, snapshotCreatedAt: present }),
  message: z.string(),
});

/** Graph routes: data. */
export const GraphStatusShape = z.looseObject({
  enabled: present,
  flags: present,
  health: z.enum(['ok', 'schema_missing']),
  tables: present,
  counts: present,
  rollout: present,
  shadowMetrics: present,
  qualityGate: present,
  alarms: present,
  topConnectedNodes: present,
  recentErrors: present,
  sampledAt: present,
  scope: present,
});
export const GraphTraceShape = z.looseObject({
  mode: present,
  includeRules: present,
  query: present,
  strategy: z.looseObject({ requested: present, applied: present }),
  trace: z.looseObject({
    retrievalPolicyDefaultStrategy: present,
    retrievalPolicyAppliedStrategy: present,
    retrievalPolicySelection: present,
    retrievalPolicyReadyForDefaultOn: present,
    retrievalPolicyBlockerCodes: present,
  }),
  tiers: z.record(z.string(), z.unknown()),
  recall: z.array(
    z.looseObject({
      rank: z.number(),
      source: z.enum(['baseline', 'graph_expansion']),
      graph: GraphExplainabilityShape.nullish(),
    }),
  ),
  rules: looseArray,
  memories: looseArray,
});
export const RolloutShape = z.looseObject({
  rollout: z.record(z.string(), z.unknown()),
  shadowMetrics: present,
  qualityGate: present,
  rolloutPlan: z.looseObject({
    recommendedMode: present,
    defaultBehaviorDecision: present,
    readyForDefaultOn: present,
    blockerCodes: present,
    autopilot: z.looseObject({ enabled: present, applied: present }),
  }),
  retrievalPolicy: z.looseObject({
    defaultStrategy: present,
    readyWindowStreak: present,
    lastDecision: present,
    lastEvaluatedAt: present,
    updatedAt: present,
    updatedBy: present,
  }),
  scope: present,
});

/** Management routes: data. */
export const EmbeddingModelsShape = z.looseObject({
  models: looseArray,
  config: z.looseObject({
    selectedModelId: present,
    source: present,
    workspaceDefaultModelId: present,
    projectOverrideModelId: present,
    allowlistModelIds: present,
  }),
});
export const UsageShape = z.looseObject({
  usageMonth: z.string(),
  summary: z.looseObject({ requestCount: z.number() }),
  breakdown: looseArray,
});
const healthValue = z.enum(['healthy', 'degraded', 'critical']);
export const EmbeddingsObservabilityShape = z.looseObject({
  queue: present,
  worker: z.looseObject({ topErrorCodes: z.array(z.unknown()).max(5) }),
  backfill: present,
  retrieval: present,
  cost: present,
  slos: present,
  alarms: looseArray,
  health: healthValue,
});
export const MemoryObservabilityShape = z.looseObject({
  lifecycle: present,
  compaction: present,
  consolidation: present,
  contradictions: present,
  alarms: looseArray,
  health: healthValue,
});
export const EvalReplayShape = z.looseObject({ scope: present, summary: present, scenarios: looseArray });
export const KeyInventoryShape = z.looseObject({
  hasKey: z.boolean(),
  keyCount: integer,
  activeKeyCount: integer,
  keys: looseArray,
});
