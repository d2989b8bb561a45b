import * as z from 'zod';
import {
  EdgeTypeSchema,
  EmbeddingModelSourceSchema,
  MemoryLayerSchema,
  MemoryTypeSchema,
  RetrievalSourceSchema,
} from '../enums.js';
import { DEFAULTS, LIMITS } from '../limits.js';
import { ResolvedScopeSchema, scopeQueryShape } from '../scope.js';
import { StrategyInputSchema, StrategySchema } from '../strategy.js';
import {
  boundedInt,
  CategorySchema,
  EmbeddingModelIdSchema,
  IndexPendingSchema,
  MetadataRecordSchema,
  MetadataSchema,
  NON_BLANK,
  nonBlank,
  PathsSchema,
  QuerySchema,
  queryInt,
  scopeField,
  TagsSchema,
  TimestampSchema,
} from './common.js';
import { ResolvedDateSchema } from './relative-dates.js';
import { QueryTimeTraceSchema } from './time-window.js';

/** Why a graph-expanded memory was included (`memories[].graph`). */
export const GraphExplainabilitySchema = z.object({
  whyIncluded: z.literal('graph_expansion'),
  linkedViaNode: z.string(),
  edgeType: z.string(),
  hopCount: z.number().int(),
  confidence: z.number().min(0).max(1),
  seedMemoryId: z.string(),
});
export type GraphExplainability = z.infer<typeof GraphExplainabilitySchema>;

/**
 * Where a record lives, as upstream memories.sh labels it (its `MemoryScope`): `project` when the record has a
 * `projectId`, else `global`. A label derived from `projectId` for clients that require it, not the `scope` object
 * of requests (see the server README, "Interop with memories.sh").
 */
export const RecordScopeSchema = z.enum(['global', 'project']);
export type RecordScope = z.infer<typeof RecordScopeSchema>;

/** The record scope of a record's `projectId` (an empty one counts as none). */
export function recordScopeOf(projectId: string | null): RecordScope {
  return projectId ? 'project' : 'global';
}

/** A stored memory. */
export const MemorySchema = z.object({
  id: z.string(),
  content: z.string(),
  type: MemoryTypeSchema,
  layer: MemoryLayerSchema,
  tags: z.array(z.string()),
  paths: z.array(z.string()),
  category: z.string().nullable(),
  metadata: MetadataRecordSchema,
  userId: z.string().nullable(),
  projectId: z.string().nullable(),
  /** `project` when `projectId` is set, else `global` (see `RecordScopeSchema`). */
  scope: RecordScopeSchema,
  embeddingModel: z.string().nullable(),
  supersededBy: z.string().nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  /**
   * An additive field: when what the memory says happened or was said (ISO 8601 UTC); the request's `occurredAt`,
   * else `createdAt`. Ranking reads it where it reads a memory's age. Optional in the type because other servers of
   * this contract (memories.sh) do not send it; this server always does.
   */
  occurredAt: TimestampSchema.optional(),
  /**
   * An additive field: the content's relative time expressions ("yesterday", "last week", "next Friday") resolved
   * against `occurredAt` (`resolveRelativeDates`), in the order they appear; empty when it has none. Optional in the
   * type for the same reason as `occurredAt`; this server always sends it.
   */
  resolvedDates: z.array(ResolvedDateSchema).optional(),
});
export type Memory = z.infer<typeof MemorySchema>;

/** A memory returned by retrieval: the record plus its score, source and (when graph-expanded) why. */
export const RetrievedMemorySchema = MemorySchema.extend({
  score: z.number(),
  source: RetrievalSourceSchema,
  graph: GraphExplainabilitySchema.optional(),
});
export type RetrievedMemory = z.infer<typeof RetrievedMemorySchema>;

/** A pair of returned memories linked by a contradicts edge. */
export const ConflictPairSchema = z.object({
  memoryAId: z.string(),
  memoryBId: z.string(),
  edgeType: EdgeTypeSchema.or(z.string()),
  confidence: z.number().min(0).max(1),
  explanation: z.string(),
  suggestion: z.string(),
});
export type ConflictPair = z.infer<typeof ConflictPairSchema>;

const memoryFields = {
  type: MemoryTypeSchema.optional(),
  layer: MemoryLayerSchema.optional(),
  tags: TagsSchema.optional(),
  paths: PathsSchema.optional(),
  category: CategorySchema.optional(),
  metadata: MetadataSchema.optional(),
};

/**
 * A request's `occurredAt`: an ISO 8601 datetime with `Z` or an offset (`2023-05-08T13:56:00Z`), at most
 * `LIMITS.occurredAtFutureMs` past the server's clock (the server checks that bound).
 */
export const OccurredAtSchema = z.iso
  .datetime({ offset: true })
  .describe(
    'When what the memory says happened or was said (ISO 8601 datetime with Z or an offset); defaults to the time of the write. An additive field.',
  );

export const MemoryContentSchema = nonBlank(z.string().min(LIMITS.memoryContent.min).max(LIMITS.memoryContent.max));

// memories/add
export const AddMemoryInputSchema = z.strictObject({
  content: MemoryContentSchema,
  ...memoryFields,
  occurredAt: OccurredAtSchema.optional(),
  embeddingModel: EmbeddingModelIdSchema.optional(),
  ...scopeField,
});
export const AddMemoryDataSchema = z.object({
  id: z.string(),
  message: z.string(),
  memory: MemorySchema,
  embeddingModel: z.string(),
  embeddingModelSource: EmbeddingModelSourceSchema,
  /**
   * An additive field: `true` when the content equals (`normalizeMemoryContent`) a live memory of the same kind that
   * the scope sees, which is returned unchanged instead of storing a second copy; absent when a memory was stored.
   */
  deduplicated: z
    .boolean()
    .optional()
    .describe(
      'true when an equal live memory (same normalized content, same kind, visible to the scope) was returned instead of storing a copy; absent when a new memory was stored',
    ),
});

/** Diagnostics of a search. */
export const SearchTraceSchema = z.object({
  requestedStrategy: StrategySchema,
  appliedStrategy: StrategySchema,
  fallbackTriggered: z.boolean(),
  fallbackReason: z.string().nullable(),
  semanticFallbackTriggered: z.boolean(),
  semanticFallbackReason: z.string().nullable(),
  lexicalCandidates: z.number().int(),
  semanticCandidates: z.number().int(),
  totalCandidates: z.number().int(),
  embeddingModel: z.string().nullable(),
  indexPending: IndexPendingSchema,
  /** An additive field: what the query's time expressions did (as in context/get); absent when it has none. */
  time: QueryTimeTraceSchema.optional().describe(
    "How the query's time expressions narrowed, boosted or ordered the memories; absent when the query has none. An additive field.",
  ),
});

// memories/search
export const SearchMemoriesInputSchema = z.strictObject({
  query: QuerySchema.min(1, 'query is required').regex(NON_BLANK, 'query is required'),
  type: MemoryTypeSchema.optional(),
  layer: MemoryLayerSchema.optional(),
  strategy: StrategyInputSchema.optional(),
  limit: boundedInt(LIMITS.retrievalLimit).default(DEFAULTS.searchLimit),
  ...scopeField,
});
export const SearchMemoriesDataSchema = z.object({
  memories: z.array(RetrievedMemorySchema),
  count: z.number().int(),
  trace: SearchTraceSchema,
});

// memories/list
export const ListMemoriesInputSchema = z.strictObject({
  type: MemoryTypeSchema.optional(),
  layer: MemoryLayerSchema.optional(),
  /** Comma-separated tags (the contract sends a single string); an array is accepted too. A memory matches when it has any of them. */
  tags: z.union([z.string().max(LIMITS.tags.maxItems * (LIMITS.tags.itemMax + 1)), TagsSchema]).optional(),
  limit: boundedInt(LIMITS.listLimit).default(DEFAULTS.listLimit),
  /** An additive field: a page's `nextCursor`, to list the memories after that page (same filters and scope). */
  cursor: z
    .string()
    .min(LIMITS.memoryListCursor.min)
    .max(LIMITS.memoryListCursor.max)
    .optional()
    .describe(
      'The nextCursor of the page before, to list the memories after it (newest first, each memory that exists for the whole walk exactly once, whatever is added, edited or forgotten meanwhile); anything else is 400 naming cursor. An additive field.',
    ),
  ...scopeField,
});
export const ListMemoriesDataSchema = z.object({
  memories: z.array(MemorySchema),
  count: z.number().int(),
  /**
   * An additive field: pass it as `cursor` to list the memories after this page; null when none follows. Optional in
   * the type because other servers of this contract do not send it; this server always does.
   */
  nextCursor: z
    .string()
    .nullable()
    .optional()
    .describe('Pass as cursor to list the memories after this page; null when none follows. An additive field.'),
  /**
   * An additive field: the `contradicts` pairs among the listed memories, as context/get's `conflicts[]`
   * (`memoryAId` the older, `memoryBId` the newer); empty when none conflict. Optional in the type because other
   * servers of this contract do not send it; this server always does.
   */
  conflicts: z
    .array(ConflictPairSchema)
    .optional()
    .describe(
      'Pairs of listed memories that contradict each other (as in context/get: memoryAId is the older, memoryBId the newer, with an explanation and a suggestion); empty when none do. An additive field.',
    ),
});

// memories/edit
const editableFields = ['content', 'type', 'layer', 'tags', 'paths', 'category', 'metadata', 'occurredAt'] as const;
export const EditMemoryInputSchema = z
  .strictObject({
    id: z.string().min(1).max(64),
    content: MemoryContentSchema.optional(),
    ...memoryFields,
    occurredAt: OccurredAtSchema.optional(),
    embeddingModel: EmbeddingModelIdSchema.optional(),
    ...scopeField,
  })
  .superRefine((value, context) => {
    if (!editableFields.some((field) => value[field] !== undefined)) {
      context.addIssue({
        code: 'custom',
        path: [],
        message: `at least one editable field is required (${editableFields.join(', ')})`,
      });
    }
  })
  // The rule above, as the OpenAPI document states it.
  .meta({ anyOf: editableFields.map((field) => ({ required: [field] })) });
export const EditMemoryDataSchema = z.object({
  id: z.string(),
  updated: z.literal(true),
  message: z.string(),
  embeddingModel: z.string(),
  embeddingModelSource: EmbeddingModelSourceSchema,
});

// memories/forget
export const ForgetMemoryInputSchema = z.strictObject({ id: z.string().min(1).max(64), ...scopeField });
export const ForgetMemoryDataSchema = z.object({ id: z.string(), deleted: z.literal(true), message: z.string() });

// memories/restore (an extension beyond the written contract)
export const RestoreMemoryInputSchema = z.strictObject({ id: z.string().min(1).max(64), ...scopeField });
export const RestoreMemoryDataSchema = z.object({
  id: z.string(),
  restored: z.literal(true),
  message: z.string(),
  memory: MemorySchema,
});

// memories/bulk-forget
export const BulkForgetFiltersSchema = z.strictObject({
  types: z.array(MemoryTypeSchema).min(1).max(10).optional(),
  tags: TagsSchema.min(1).optional(),
  olderThanDays: boundedInt(LIMITS.olderThanDays).optional(),
  /** Wildcards on content: `*` any run of characters, `?` one character. */
  pattern: z.string().min(LIMITS.bulkForgetPattern.min).max(LIMITS.bulkForgetPattern.max).optional(),
  projectId: z.string().min(1).max(LIMITS.projectId.max).optional(),
  /** An alias of the top-level `all`, where the memories.sh client sends it; either being true selects all. */
  all: z.boolean().optional(),
});

const SELECTING_FILTERS = ['types', 'tags', 'olderThanDays', 'pattern'] as const;
/** No selecting filter and no `projectId` in `filters`. */
const NO_FILTERS = { not: { anyOf: [...SELECTING_FILTERS, 'projectId'].map((field) => ({ required: [field] })) } };
/** JSON Schema of the bulk-forget rules: `all` alone, or at least one filter without `all`. */
const BULK_FORGET_ONE_OF = [
  {
    anyOf: [
      { required: ['all'], properties: { all: { const: true }, filters: NO_FILTERS } },
      {
        required: ['filters'],
        properties: { filters: { ...NO_FILTERS, required: ['all'], properties: { all: { const: true } } } },
      },
    ],
  },
  {
    required: ['filters'],
    properties: {
      all: { const: false },
      filters: {
        anyOf: SELECTING_FILTERS.map((field) => ({ required: [field] })),
        not: { required: ['all'], properties: { all: { const: true } } },
      },
    },
  },
];

/** Whether a bulk forget selects every memory of its scope: `all`, or its alias `filters.all`. */
export function bulkForgetsAll(input: {
  all?: boolean | undefined;
  filters?: { all?: boolean | undefined } | undefined;
}) {
  return input.all === true || input.filters?.all === true;
}

export const BulkForgetInputSchema = z
  .strictObject({
    filters: BulkForgetFiltersSchema.optional(),
    all: z.boolean().default(false),
    dryRun: z.boolean().default(false),
    ...scopeField,
  })
  .superRefine((value, context) => {
    const filters = value.filters ?? {};
    const hasFilter =
      filters.types !== undefined ||
      filters.tags !== undefined ||
      filters.olderThanDays !== undefined ||
      filters.pattern !== undefined;
    if (bulkForgetsAll(value) && (hasFilter || filters.projectId !== undefined)) {
      context.addIssue({ code: 'custom', path: ['all'], message: 'all cannot be combined with other filters' });
    } else if (!bulkForgetsAll(value) && !hasFilter) {
      context.addIssue({
        code: 'custom',
        path: ['filters'],
        message: 'give at least one of types, tags, olderThanDays, pattern, or set all to true',
      });
    }
  })
  // The rules above, as the OpenAPI document states them: `all` (top level or in filters) with no filter, projectId
  // included, or at least one of the four filters without `all`.
  .meta({ oneOf: BULK_FORGET_ONE_OF });

export const BulkForgetPreviewSchema = z.object({ id: z.string(), type: MemoryTypeSchema, contentPreview: z.string() });
/**
 * What a bulk forget matched but left alone (additive fields): `sharedSkipped`, on calls whose scope names a user,
 * counts shared memories (no userId), which only a call without a userId forgets; `rulesSkipped`, on MCP calls by a
 * key without the permission to write rules, counts rules.
 */
const bulkForgetSkipped = {
  sharedSkipped: z.number().int().optional(),
  rulesSkipped: z.number().int().optional(),
};
export const BulkForgetDataSchema = z.union([
  z.object({
    dryRun: z.literal(false),
    count: z.number().int(),
    ids: z.array(z.string()),
    message: z.string(),
    ...bulkForgetSkipped,
  }),
  z.object({
    dryRun: z.literal(true),
    count: z.number().int(),
    memories: z.array(BulkForgetPreviewSchema),
    message: z.string(),
    ...bulkForgetSkipped,
  }),
]);

// memories/vacuum
export const VacuumInputSchema = z.strictObject({ ...scopeField });
export const VacuumDataSchema = z.object({ purged: z.number().int(), message: z.string() });

// memories/consolidate
export const ConsolidationRunSchema = z.object({
  id: z.string(),
  scope: ResolvedScopeSchema,
  projectId: z.string().nullable(),
  userId: z.string().nullable(),
  inputCount: z.number().int(),
  mergedCount: z.number().int(),
  supersededCount: z.number().int(),
  conflictedCount: z.number().int(),
  model: z.string(),
  createdAt: TimestampSchema,
  metadata: MetadataRecordSchema,
});
export type ConsolidationRun = z.infer<typeof ConsolidationRunSchema>;
export const ConsolidateInputSchema = z.strictObject({
  types: z.array(MemoryTypeSchema).min(1).max(10).optional(),
  includeGlobal: z.boolean().default(true),
  globalOnly: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  model: z.string().min(LIMITS.consolidateModel.min).max(LIMITS.consolidateModel.max).optional(),
  ...scopeField,
});
export const ConsolidateDataSchema = z.object({
  runId: z.string(),
  message: z.string(),
  run: ConsolidationRunSchema,
  winnerMemoryIds: z.array(z.string()),
  supersededMemoryIds: z.array(z.string()),
});

// memories/{id} and memories/{id}/history (extensions beyond the written contract)
const MemoryIdSchema = z.string().min(1).max(64);
export const GetMemoryInputSchema = z.strictObject({ id: MemoryIdSchema, ...scopeQueryShape });
export const GetMemoryDataSchema = z.object({ id: z.string(), memory: MemorySchema });

/** How an earlier version was replaced: an edit of the memory, or another memory superseding or absorbing it. */
export const MemoryChangeSchema = z.enum(['edited', 'superseded', 'merged']);
export type MemoryChange = z.infer<typeof MemoryChangeSchema>;

/**
 * An earlier version of a memory: what it said, and when and by what it was replaced. `edited`: an edit of
 * `memoryId` replaced this wording (`supersededBy` is `memoryId` itself, its next version); `superseded`: the memory
 * `memoryId` was superseded by `supersededBy` (consolidation, or a newer statement of the same claim at write time);
 * `merged`: `memoryId`, a duplicate, was merged into `supersededBy` by consolidation.
 */
export const MemoryVersionSchema = z.object({
  memoryId: z.string(),
  change: MemoryChangeSchema,
  content: z.string(),
  type: MemoryTypeSchema,
  layer: MemoryLayerSchema,
  tags: z.array(z.string()),
  paths: z.array(z.string()),
  category: z.string().nullable(),
  metadata: MetadataRecordSchema,
  occurredAt: TimestampSchema,
  /** When this version became current: the memory's creation, or the edit before. */
  validFrom: TimestampSchema,
  /** When it was replaced: the edit's time, or when the other memory superseded or absorbed it. */
  replacedAt: TimestampSchema,
  /** The memory that replaced it (for `edited`, `memoryId` itself). */
  supersededBy: z.string(),
});
export type MemoryVersion = z.infer<typeof MemoryVersionSchema>;

export const MemoryHistoryInputSchema = z.strictObject({
  id: MemoryIdSchema,
  limit: queryInt(LIMITS.memoryHistoryLimit).default(DEFAULTS.memoryHistoryLimit),
  cursor: z.string().min(LIMITS.memoryHistoryCursor.min).max(LIMITS.memoryHistoryCursor.max).optional(),
  ...scopeQueryShape,
});
export const MemoryHistoryDataSchema = z.object({
  id: z.string(),
  /** The memory as it is now. */
  memory: MemorySchema,
  /** Its earlier versions, newest first (by `replacedAt`), at most `limit`. */
  versions: z.array(MemoryVersionSchema),
  count: z.number().int(),
  /** Pass as `cursor` for the older versions after this page; null when none follows. */
  nextCursor: z.string().nullable(),
});
