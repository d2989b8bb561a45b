import * as z from 'zod';

/*
 * The response schemas of the upstream memories.sh core client (`@memories.sh/core`), written here from a reading of
 * webrenew/memories `packages/core/src/client-schemas.ts` (versions at commits 1c37499b, 5818e86c in
 * WebRenew/memories, and d3a2f7f6), `client-helpers.ts` (1827919: skill file records with `usageCount`, `lastUsedAt`,
 * `procedureKey`) and of how `packages/core/src/client.ts` uses them: `memories.list` and `memories.search`
 * safe-parse `data` with the memory-list schema, `context.get` with the context schema; when the parse fails the
 * client falls back to reading Markdown sections out of the JSON text and returns empty lists. The management calls
 * (`management.keys`, `.tenants`, `.embeddings`) parse `data` with their schema and throw INVALID_RESPONSE_DATA when
 * it fails. Zod objects drop unknown keys, so our extra fields are harmless; a missing or mistyped field fails.
 * Re-expressed, not copied: no upstream code is in this repository.
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
  usageCount: z.number().int().nonnegative().optional(),
  lastUsedAt: z.string().nullable().optional(),
  procedureKey: z.string().nullable().optional(),
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

function contextSchema<Extra extends z.ZodRawShape = Record<never, never>>(
  strategies: readonly [string, ...string[]],
  extraTrace: Extra = {} as Extra,
) {
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

/** Every answer the client reads a message from (add, edit, forget, skill upsert and delete): `message` if any. */
export const upstreamMutation = z.object({ message: z.string().optional() });

/** `data` of memories/bulk-forget, both kinds. */
export const upstreamBulkForget = z.object({
  count: count,
  ids: z.array(z.string()).optional(),
  memories: z.array(z.object({ id: z.string(), type: z.string(), contentPreview: z.string() })).optional(),
  message: z.string(),
});

/** `data` of memories/vacuum. */
export const upstreamVacuum = z.object({ purged: count, message: z.string() });

/** `data` of the three management/keys calls. */
export const upstreamKeys = {
  status: z.object({
    hasKey: z.boolean(),
    keyPreview: z.string().optional(),
    createdAt: z.string().nullable().optional(),
    expiresAt: z.string().nullable().optional(),
    isExpired: z.boolean().optional(),
  }),
  create: z.object({
    apiKey: z.string(),
    keyPreview: z.string().optional(),
    createdAt: z.string().optional(),
    expiresAt: z.string().optional(),
    message: z.string().optional(),
  }),
  revoke: z.object({ ok: z.boolean() }),
};

/** A tenant mapping as upstream reads it: `tursoDbUrl` is required. */
const upstreamTenant = z.object({
  tenantId: z.string(),
  tursoDbUrl: z.string(),
  tursoDbName: z.string().nullable().optional(),
  status: z.string(),
  source: z.enum(['auto', 'override']).default('override'),
  metadata: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  lastVerifiedAt: z.string().nullable().optional(),
});

/** `data` of the three management/tenant-overrides calls. */
export const upstreamTenants = {
  list: z.object({ tenantDatabases: z.array(upstreamTenant), count: z.number().int() }),
  upsert: z.object({ tenantDatabase: upstreamTenant, provisioned: z.boolean(), mode: z.string() }),
  disable: z.object({ ok: z.boolean(), tenantId: z.string(), status: z.string(), updatedAt: z.string() }),
};

/** `data` of embeddings/models. */
export const upstreamEmbeddingModels = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      provider: z.string(),
      description: z.string().nullable(),
      contextWindow: z.number().nullable(),
      pricing: z.object({ input: z.string().nullable() }),
      inputCostUsdPerToken: z.number().nullable(),
      tags: z.array(z.string()).default([]),
    }),
  ),
  config: z.object({
    selectedModelId: z.string(),
    source: z.enum(['request', 'project', 'workspace', 'system_default']),
    workspaceDefaultModelId: z.string().nullable(),
    projectOverrideModelId: z.string().nullable(),
    allowlistModelIds: z.array(z.string()),
  }),
});

const usageSummary = z.object({
  usageMonth: z.string(),
  requestCount: count,
  estimatedRequestCount: count,
  inputTokens: count,
  gatewayCostUsd: z.number().nonnegative(),
  marketCostUsd: z.number().nonnegative(),
  customerCostUsd: z.number().nonnegative(),
});

/** `data` of management/embeddings/usage. */
export const upstreamEmbeddingUsage = z.object({
  usageMonth: z.string(),
  summary: usageSummary,
  breakdown: z.array(
    usageSummary.extend({
      tenantId: z.string().nullable(),
      projectId: z.string().nullable(),
      modelId: z.string(),
      provider: z.string(),
    }),
  ),
});

/**
 * How the client reads an MCP `tools/call` result: `structuredContent` is the envelope when it parses as one, and
 * `data` is then what the response schema parses; a JSON-RPC `error` with typed `data` is thrown.
 */
export const upstreamToolResult = z
  .object({
    content: z.array(z.object({ type: z.string(), text: z.string().optional() })).optional(),
    structuredContent: z.unknown().optional(),
  })
  .loose();
