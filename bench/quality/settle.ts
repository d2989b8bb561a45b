import type { InProcessServer } from '../retrieval/in-process-server.js';
import { waitForIndex } from '../retrieval/wait-for-index.js';

/** A tenant after its writes settled: which memories are live, and what consolidation reported. */
export interface Settled {
  /** Listed and not superseded. */
  live: Set<string>;
  supersededBy: Map<string, string>;
  consolidation: { merged: number; superseded: number; conflicted: number } | null;
}

interface ListedMemory {
  id: string;
  supersededBy: string | null;
}

interface ConsolidateData {
  run: { mergedCount: number; supersededCount: number; conflictedCount: number };
}

/**
 * Waits for the background indexer (vectors, graph edges), runs `memories/consolidate` for the tenant the way a
 * service user would after writes (unless `consolidate` is false), waits again, and lists what is live.
 */
export async function settle(server: InProcessServer, tenantId: string, consolidate: boolean): Promise<Settled> {
  const scope = { tenantId };
  await waitForIndex(server, tenantId);
  let consolidation: Settled['consolidation'] = null;
  if (consolidate) {
    const { run } = await server.call<ConsolidateData>('POST', '/memories/consolidate', { scope });
    consolidation = { merged: run.mergedCount, superseded: run.supersededCount, conflicted: run.conflictedCount };
    await waitForIndex(server, tenantId);
  }
  const { memories } = await server.call<{ memories: ListedMemory[] }>('POST', '/memories/list', { limit: 100, scope });
  const live = new Set<string>();
  const supersededBy = new Map<string, string>();
  for (const memory of memories) {
    if (memory.supersededBy === null) live.add(memory.id);
    else supersededBy.set(memory.id, memory.supersededBy);
  }
  return { live, supersededBy, consolidation };
}
