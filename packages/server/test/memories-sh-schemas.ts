import * as z from 'zod';

/*
 * The response schemas of the upstream memories.sh core client (`@memories.sh/core`), written here from a reading of
 * webrenew/memories `packages/core/src/client-schemas.ts` (versions at commits 1c37499b, 5818e86c in
 * WebRenew/memories, and d3a2f7f6) and of how `packages/core/src/client.ts` uses them: `memories.list` and
 * `memories.search` safe-parse `data` with the memory-list schema, `context.get` with the context schema; when the
 * parse fails the client falls back to reading Markdown sections out of the JSON text and returns empty lists.
 * Zod objects drop unknown keys, so our extra fields are harmless; a missing or mistyped field fails the parse.
 */

/** The envelope every answer is read through. */
export const upstreamEnvelope = z.object({
  ok: z.boolean(),
  data: z.unknown().nullable(),
  error: z
    .object({
      type: z.string(),
      code: z.string(),
      message: z.string(),
      status: z.number().int().optional(),
      retryable: z.boolean().optional(),
      details: z.unknown().optional(),
    })
    .nullable(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

const count = z.number().int().nonnegative();

/** A memory record; `scope` is required, and the client keeps only `global` and `project` (else `unknown`). */
export const upstreamMemory = z.object({
  id: z.string().nullable().optional(),
  content: z.string(),
  type: z.string(),
  layer: z.string().optional(),
  expiresAt: z.string().nullable().optional(),
  scope: z.string(),
  projectId: z.string().nullable().optional(),
  tags: z.array(z.string()).optional().default([]),
  graph: z
    .object({
      whyIncluded: z.literal('graph_expansion'),
      linkedViaNode: z.string(),
      edgeType: z.string(),
      hopCount: count,
      seedMemoryId: z.string(),
    })
    .nullable()
    .optional(),
});

/** A skill file, in a context bundle or a list; `scope` is required here too. */
export const upstreamSkillFile = z.object({
  id: z.string(),
  path: z.string(),
  content: z.string(),
  scope: z.string(),
  projectId: z.string().nullable().optional(),
  userId: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** `data` of memories/list and memories/search. */
export const upstreamMemoryList = z.object({ memories: z.array(upstreamMemory).optional().default([]) });

/** `data` of skills/files/list (`skills.listFiles` returns `[]` when it fails). */
export const upstreamSkillFileList = z.object({
  skillFiles: z.array(upstreamSkillFile).optional().default([]),
  count: count.optional(),
});

/** The strategy names `trace.strategy` takes: legacy only (1c37499b), or widened to the current ones (5818e86c on). */
const LEGACY_NAMES = ['baseline', 'hybrid_graph'] as const;
const WIDENED_NAMES = ['lexical', 'semantic', 'hybrid', 'baseline', 'hybrid_graph'] as const;

function contextSchema(strategies: readonly [string, ...string[]], extraTrace: z.ZodRawShape = {}) {
  const trace = z.object({
    requestedStrategy: z.enum(strategies).optional(),
    strategy: z.enum(strategies),
    graphDepth: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    graphLimit: count,
    rolloutMode: z.enum(['off', 'shadow', 'canary']).optional(),
    shadowExecuted: z.boolean().optional(),
    baselineCandidates: count,
    graphCandidates: count,
    graphExpandedCount: count,
    fallbackTriggered: z.boolean().optional(),
    fallbackReason: z.string().nullable().optional(),
    totalCandidates: count,
    ...extraTrace,
  });
  const memories = z.array(upstreamMemory).optional().default([]);
  return z.object({
    rules: memories,
    memories,
    skillFiles: z.array(upstreamSkillFile).optional().default([]),
    workingMemories: memories,
    longTermMemories: memories,
    trace: trace.optional(),
  });
}

const semanticStrategy = z.enum(['lexical', 'semantic', 'hybrid']);

/** `data` of context/get, per upstream version. */
export const upstreamContext = {
  /** 1c37499b: `trace.strategy` is `baseline` or `hybrid_graph`. */
  legacy: contextSchema(LEGACY_NAMES),
  /** 5818e86c: the current names are accepted too. */
  widened: contextSchema(WIDENED_NAMES),
  /** d3a2f7f6: adds the semantic fields, `semanticStrategyRequested`/`Applied` typed as strategy names. */
  semanticNames: contextSchema(WIDENED_NAMES, {
    semanticStrategyRequested: semanticStrategy.optional(),
    semanticStrategyApplied: semanticStrategy.optional(),
    lexicalCandidates: count.optional(),
    semanticCandidates: count.optional(),
    semanticFallbackTriggered: z.boolean().optional(),
    semanticFallbackReason: z.string().nullable().optional(),
  }),
};
