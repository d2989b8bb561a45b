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
  services: Pick<Services, 'control' | 'resolver' | 'indexing' | 'logger' | 'now'>,
): Promise<void> {
  const control = services.control.database;
  const owners = await control.all<{ id: string }>(
    'SELECT id FROM owners WHERE workspace_db_url IS NOT NULL ORDER BY created_at',
  );
  const tenants = await control.all<{ owner_id: string; tenant_id: string }>(
    "SELECT owner_id, tenant_id FROM tenants WHERE status = 'ready' ORDER BY updated_at DESC",
  );
  const queue: Array<{ ownerId: string; tenantId: string | null }> = [
    ...owners.map((owner) => ({ ownerId: owner.id, tenantId: null })),
    ...tenants.map((tenant) => ({ ownerId: tenant.owner_id, tenantId: tenant.tenant_id })),
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
