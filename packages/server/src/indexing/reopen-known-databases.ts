import type { Services } from '../services.js';

/** Databases the sweep opens at once: indexing catches up in the background, requests keep the rest of the machine. */
const SWEEP_CONCURRENCY = 2;

/**
 * The start-up sweep: opens every database the control database knows (owners' workspaces, then ready tenant
 * mappings, most recently changed first) a few at a time, so jobs left by a killed process resume without waiting
 * for a request to open their database; waits for each one's indexer to settle before the next, so a database the
 * LRU later evicts has finished its work. A database that cannot be opened is skipped (its first request will say why).
 */
export async function reopenKnownDatabases(
  services: Pick<Services, 'control' | 'registry' | 'resolver' | 'indexing' | 'logger' | 'now'>,
): Promise<void> {
  const owners = await services.control.ownersWithWorkspace();
  const tenants = await services.registry.readyMappings();
  const queue: Array<{ ownerId: string; tenantId: string | null }> = [
    ...owners.map((ownerId) => ({ ownerId, tenantId: null })),
    ...tenants.map((tenant) => ({ ownerId: tenant.ownerId, tenantId: tenant.tenantId })),
  ];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (services.indexing.shuttingDown) return;
      try {
        const handle = await services.resolver.resolve(next.ownerId, next.tenantId, services.now());
        await services.indexing.settled(handle.database);
      } catch {
        services.logger.debug('index sweep skipped a database', { tenantId: next.tenantId });
      }
    }
  };
  await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, worker));
}
