import { BackfillPanel } from './backfill-panel.js';
import { UsagePanel } from './usage-panel.js';

/** Embedding usage by month and the backfill of the scope in the header. */
export function EmbeddingsSection() {
  return (
    <div class="stack">
      <UsagePanel />
      <BackfillPanel />
    </div>
  );
}
