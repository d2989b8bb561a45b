import { EmbeddingsObservability } from './embeddings-observability.js';
import { MemoryObservability } from './memory-observability.js';

/** The observability reports of the scope in the header, with charts over time. */
export function ObservabilitySection() {
  return (
    <div class="stack">
      <p class="muted">
        For the scope in the header. The contradictions trend, the lifecycle changes, retrieval latency and fallbacks
        come from what the server stored over the window; the memory counts and the index queue are states, which this
        page samples every 10 seconds while it is open (kept in memory until the tab closes).
      </p>
      <MemoryObservability />
      <EmbeddingsObservability />
    </div>
  );
}
