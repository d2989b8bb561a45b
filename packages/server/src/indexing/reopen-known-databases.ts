import type { Logger } from '../logger.js';
import type { ControlStore } from '../store/control-store.js';
import type { TenantRegistry } from '../store/tenant-registry.js';
import type { TenantResolver } from '../tenancy/resolver.js';
import type { IndexingService } from './indexing-service.js';

/** Databases the sweep opens at once: indexing catches up in the background, requests keep the rest of the machine. */
const SWEEP_CONCURRENCY = 2;

/** What the sweep uses: the databases the control database knows, the resolver opening them, their indexers. */
export interface SweepSources {
  control: Pick<ControlStore, 'ownersWithWorkspace'>;
  registry: Pick<TenantRegistry, 'readyMappings'>;
  resolver: Pick<TenantResolver, 'resolve'>;
  indexing: Pick<IndexingService, 'shuttingDown' | 'settled'>;
  logger: Logger;
  now: () => Date;
}

/**
 * The start-up sweep: opens every database the control database knows (owners' workspaces, then ready tenant
 * mappings, most recently changed first) a few at a time, so jobs left by a killed process resume without waiting
 * for a request to open their database; waits for each one's indexer to settle before the next, so a database the
 * LRU later evicts has finished its work. A database that cannot be opened is skipped (its first request will say why).
 */
export async function reopenKnownDatabases(sources: SweepSources): Promise<void> {
  const owners = await sources.control.ownersWithWorkspace();
  const tenants = await sources.registry.readyMappings();
  const queue: Array<{ ownerId: string; tenantId: string | null }> = [
    ...owners.map((ownerId) => ({ ownerId, tenantId: null })),
    ...tenants.map((tenant) => ({ ownerId: tenant.ownerId, tenantId: tenant.tenantId })),
  ];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (sources.indexing.shuttingDown) return;
      try {
        const handle = await sources.resolver.resolve(next.ownerId, next.tenantId, sources.now());
        await sources.indexing.settled(handle.database);
      } catch {
        sources.logger.debug('index sweep skipped a database', { tenantId: next.tenantId });
      }
    }
  };
  await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, worker));
}
