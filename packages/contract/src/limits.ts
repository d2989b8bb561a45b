/**
 * Every limit of the contract's Limits section, plus the decisions docs/architecture.md takes where the contract is silent.
 * The schemas read these numbers; nothing else restates them.
 */
export const LIMITS = {
  query: { max: 500 },
  memoryContent: { min: 1, max: 8000 },
  retrievalLimit: { min: 1, max: 50 },
  listLimit: { min: 1, max: 100 },
  graphDepth: { min: 0, max: 2 },
  graphLimit: { min: 1, max: 50 },
  tags: { maxItems: 50, itemMin: 1, itemMax: 120 },
  paths: { maxItems: 100, itemMin: 1, itemMax: 300 },
  category: { min: 1, max: 120 },
  sessionId: { min: 1, max: 120 },
  checkpointContent: { min: 1, max: 16000 },
  sessionTitle: { min: 1, max: 240 },
  sessionClient: { min: 1, max: 120 },
  consolidateModel: { min: 1, max: 160 },
  skillPath: { min: 1, max: 400 },
  promoteTitle: { min: 1, max: 200 },
  procedureKey: { min: 1, max: 120 },
  maxSteps: { min: 3, max: 20 },
  skillContent: { min: 1, max: 120000 },
  embeddingsWindowHours: { min: 1, max: 168 },
  memoryWindowHours: { min: 1, max: 336 },
  // Decisions of docs/architecture.md (the contract says "not shown").
  skillListLimit: { min: 1, max: 500 },
  tenantId: { max: 128 },
  userId: { max: 256 },
  projectId: { min: 1, max: 300 },
  embeddingModel: { min: 1, max: 160 },
  topNodesLimit: { min: 1, max: 100 },
  backfillBatchSize: { min: 1, max: 500 },
  usageLimit: { min: 1, max: 500 },
  /** sessions.list and sessions.events (extensions beyond the written contract). */
  sessionListLimit: { min: 1, max: 200 },
  sessionEventsLimit: { min: 1, max: 500 },
  /** memories/list `cursor`: the opaque `nextCursor` of a page (a creation time and a row number, encoded). */
  memoryListCursor: { min: 1, max: 512 },
  /** memories/{id}/history (an extension): earlier versions a page carries, and its opaque `cursor`. */
  memoryHistoryLimit: { min: 1, max: 200 },
  memoryHistoryCursor: { min: 1, max: 512 },
  /** `metadata` of any request: UTF-8 bytes of its JSON and levels of nesting (the object itself is level 1). */
  metadata: { maxBytes: 16 * 1024, maxDepth: 16 },
  /** Eval replay: bounded so the worst accepted request is scored in well under a second (matching is linear). */
  evalScenarios: { max: 100 },
  evalScenarioId: { min: 1, max: 200 },
  evalFacts: { maxItems: 500, itemMax: 2000 },
  evalSummary: { max: 50_000 },
  /** context/get: at most this many rules (the newest live rule-layer memories). */
  contextRules: { max: 100 },
  /**
   * context/get: UTF-8 bytes of skill file content one response carries; whole files only. At least 3 bytes a
   * character times `skillContent.max`, so the best-ranked file always fits.
   */
  contextSkillFileBytes: 384 * 1024,
  /**
   * skills/files/list: UTF-8 bytes of text (path, title, content, metadata) one page carries; whole files only, the
   * page stops before the first file that does not fit and `nextCursor` reads on from there. Above the largest file
   * (400 x 3 bytes of path, a title and content of 120,000 x 3 bytes each, a small promote metadata), so every page
   * holds at least one file; 500 whole files used to make one answer of 360 MB.
   */
  skillListBytes: 1024 * 1024,
  /** skills/files/list `cursor`: the opaque `nextCursor` of a page (a path of 400 3-byte characters, encoded). */
  skillListCursor: { min: 1, max: 4096 },
  olderThanDays: { min: 0, max: 36500 },
  bulkForgetPattern: { min: 1, max: 500 },
  tokenCount: { min: 0, max: 10_000_000 },
  turnIndex: { min: 0, max: 10_000_000 },
  requestBodyBytes: 1024 * 1024,
  /**
   * MCP: UTF-8 bytes of tool results one HTTP request (a JSON-RPC batch of up to 100 calls) carries, each result
   * counted twice (its text and its structured content). The first answer is always delivered, whatever its size
   * (each route caps its own answer; see the server README's Limits), so one call alone always succeeds; a batch of
   * 100 memories/list pages at the field caps would otherwise make one answer of 4.6 GB and end the process.
   */
  mcpResponseBytes: 16 * 1024 * 1024,
  /** MCP: tool calls of one HTTP request that run at once; the others wait (each holds its answer while it runs). */
  mcpConcurrentCalls: 2,
  keyExpiry: { minMs: 60_000, maxMs: 365 * 24 * 60 * 60 * 1000 },
  /** How far past the server's clock a memory's `occurredAt` may be (clock skew between client and server). */
  occurredAtFutureMs: 5 * 60_000,
} as const;

/** Defaults the schemas apply when a field is omitted. */
export const DEFAULTS = {
  contextLimit: 5,
  traceLimit: 10,
  searchLimit: 10,
  listLimit: 50,
  graphDepth: 1,
  graphLimit: 8,
  includeRules: true,
  includeSkillFiles: true,
  mode: 'all',
  skillListLimit: 100,
  contextSkillFiles: 100,
  topNodesLimit: 10,
  backfillBatchSize: 100,
  embeddingsWindowHours: 24,
  memoryWindowHours: 168,
  usageLimit: 100,
  sessionListLimit: 50,
  sessionEventsLimit: 200,
  memoryHistoryLimit: 50,
  maxSteps: 10,
  /** The offline Universal Sentence Encoder Lite: better hybrid recall than `local/hash-384` (BENCHMARKS.md). */
  embeddingModel: 'local/use-lite-512',
  workingMemoryTtlHours: 24,
  workingMemorySlots: 3,
} as const;
