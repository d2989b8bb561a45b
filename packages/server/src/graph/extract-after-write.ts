import type { HandlerContext } from '../handlers/types.js';
import type { MemoryRow } from '../store/memory-rows.js';
import { syncMemoryGraph } from './sync-memory-graph.js';

/**
 * The write hook of `memories/add` and `memories/edit`: (re-)extracts the memory's graph. A graph failure never
 * fails the write; it is logged (codes only, no SQL) and recorded in `graph_errors` for graph/status.
 */
export async function extractGraphAfterWrite(context: HandlerContext, row: MemoryRow): Promise<void> {
  const { database } = await context.tenant();
  const outcome = await syncMemoryGraph(database, row, context.now);
  if (outcome !== 'synced') {
    context.services.logger.warn('graph extraction degraded', {
      requestId: context.requestId,
      memoryId: row.id,
      outcome,
    });
  }
}
