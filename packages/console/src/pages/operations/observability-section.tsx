import { EmbeddingsObservability } from './embeddings-observability.js';
import { MemoryObservability } from './memory-observability.js';

/** The observability reports of the scope in the header, with charts over time. */
export function ObservabilitySection() {
  return (
    <div class="stack">
      <p class="muted">
        For the scope in the header. The contradictions trend is a series the API returns; the other charts plot figures
        this page samples every 10 seconds while it is open, kept in memory until the tab closes.
      </p>
      <MemoryObservability />
      <EmbeddingsObservability />
    </div>
  );
}
