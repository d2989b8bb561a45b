import type { SessionHints } from '@memory-service/client';

/**
 * The client judges `budgetTokens` against the retrieved context alone; the middleware also sees the conversation.
 * So the count trigger fires when the session's tokens (conversation so far plus the incoming turn) and the
 * injected context together exceed the budget, unless the client already asked for compaction.
 */
export function withTokenBudget(
  verdict: SessionHints,
  {
    budgetTokens,
    sessionTokens,
    contextTokens,
  }: { budgetTokens: number | undefined; sessionTokens: number; contextTokens: number },
): SessionHints {
  if (verdict.compactionRequired || budgetTokens === undefined) return verdict;
  const total = sessionTokens + contextTokens;
  if (total <= budgetTokens) return verdict;
  return {
    compactionRequired: true,
    triggerHint: 'count',
    reason: `session of about ${total} tokens exceeds the budget of ${budgetTokens}`,
  };
}
