import type { MemoryResults } from './memory-query.js';

/** How a search ran: the strategy asked for and the one applied, any fallback, and the candidates per side. */
export function SearchTrace({ trace }: { trace: NonNullable<MemoryResults['trace']> }) {
  const fallback = trace.fallbackReason ?? trace.semanticFallbackReason;
  return (
    <p class="search-trace">
      Strategy <strong>{trace.requestedStrategy}</strong>
      {trace.appliedStrategy === trace.requestedStrategy ? (
        ' applied'
      ) : (
        <>
          {' fell back to '}
          <strong>{trace.appliedStrategy}</strong>
        </>
      )}
      {trace.fallbackTriggered || trace.semanticFallbackTriggered ? ` (${fallback ?? 'fallback'})` : null}
      {` · candidates: ${trace.lexicalCandidates} full text, ${trace.semanticCandidates} semantic, ${trace.totalCandidates} in all`}
      {trace.embeddingModel === null ? null : ` · model ${trace.embeddingModel}`}
    </p>
  );
}
