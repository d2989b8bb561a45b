import type { InProcessServer } from './in-process-server.js';

interface QueueFigures {
  queue: { pending: number; indexPending?: number };
}

/**
 * Waits until every memory of a tenant is indexed (its vector and graph edges); of one user's scope when `userId` is
 * given (the queue figures count what the scope sees: without a user, shared memories only). A write answers once it is durable
 * and lexically findable, and the indexer embeds it afterwards; scoring hybrid before the indexer is done would rank
 * with part of the vectors, and the figures would depend on the machine's speed.
 */
export async function waitForIndex(
  server: InProcessServer,
  tenantId: string,
  { timeoutMs = 600_000, pollMs = 200, userId }: { timeoutMs?: number; pollMs?: number; userId?: string } = {},
): Promise<void> {
  const user = userId === undefined ? '' : `&userId=${encodeURIComponent(userId)}`;
  const route = `/management/embeddings/observability?tenantId=${encodeURIComponent(tenantId)}${user}`;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { queue } = await server.call<QueueFigures>('GET', route);
    const left = queue.pending + (queue.indexPending ?? 0);
    if (left === 0) return;
    if (performance.now() > deadline)
      throw new Error(`${tenantId}: ${left} memories still to index after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
