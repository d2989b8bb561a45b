import type { WrittenMemory } from '../embeddings/write-hook.js';
import type { Services } from '../services.js';
import type { Database } from '../store/database.js';
import { syncMemoryGraphs } from './sync-memory-graph.js';

/**
 * The write hook of `memories/add` and `memories/edit`: (re-)extracts the written memories' graphs in one write. A
 * graph failure never fails the write; it is logged (codes only, no SQL) and recorded in `graph_errors` for
 * graph/status.
 */
export async function extractGraphAfterWrites(
  services: Services,
  database: Database,
  written: readonly WrittenMemory[],
): Promise<void> {
  const outcomes = await syncMemoryGraphs(
    database,
    written.map((entry) => entry.row),
    written[0]?.now ?? new Date(),
  );
  written.forEach((entry, index) => {
    const outcome = outcomes[index];
    if (outcome === 'synced') return;
    services.logger.warn('graph extraction degraded', {
      requestId: entry.requestId,
      memoryId: entry.row.id,
      outcome,
    });
  });
}
