/**
 * Plain words for the reason and blocker codes of graph/rollout. The codes are the server's (its quality gate and
 * rollout plan); a code this list does not know is shown as a sentence made of its words, never dropped.
 */
const REASON_WORDS: Readonly<Record<string, string>> = {
  HYBRID_SAMPLES_BELOW_MINIMUM: 'Not enough hybrid searches yet in the window to judge them.',
  SHADOW_EXECUTIONS_BELOW_MINIMUM: 'Graph expansion has not run often enough yet in the window to judge it.',
  FALLBACK_RATE_ABOVE_MAXIMUM: 'Too many hybrid searches fell back to full-text search.',
  GRAPH_ERROR_FALLBACK_RATE_ABOVE_MAXIMUM: 'Graph expansion failed too often.',
  FALLBACK_RATE_REGRESSION: 'Hybrid searches fall back to full-text search more often than in the window before.',
  GRAPH_ERROR_FALLBACK_RATE_REGRESSION: 'Graph expansion fails more often than in the window before.',
  EXPANSION_COVERAGE_BELOW_MINIMUM: 'Graph expansion rarely finds a related memory.',
  AVERAGE_GRAPH_CANDIDATES_BELOW_MINIMUM: 'Graph expansion finds too few related memories per search.',
  ROLLOUT_NOT_CANARY: 'The rollout is not in canary mode yet.',
  READY_WINDOWS_BELOW_REQUIRED: 'The gate has not passed in enough windows in a row yet.',
  VECTOR_COVERAGE_BELOW_MINIMUM: 'Too few memories have embeddings yet.',
  SEMANTIC_FAILURE_RATE_ABOVE_MAXIMUM: 'The embedding model fails too often.',
};

/** The plain-words reading of a reason or blocker code. */
export function reasonWords(code: string): string {
  const known = REASON_WORDS[code];
  if (known !== undefined) return known;
  const words = code.toLowerCase().split('_').filter(Boolean).join(' ');
  return words === '' ? code : `${words[0]!.toUpperCase()}${words.slice(1)}.`;
}

/** What an operator can do about the rollout in each mode, in plain words. */
export const NEXT_STEP = {
  off: 'Move to shadow to start measuring graph expansion beside each context call (nothing served changes).',
  shadow: 'Move to canary once the gate passes, to serve graph expansion to hybrid context calls.',
  canary: 'Move back to shadow (or off) to stop serving graph expansion.',
} as const;
