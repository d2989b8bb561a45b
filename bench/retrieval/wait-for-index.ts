import type { InProcessServer } from './in-process-server.js';

interface QueueFigures {
  queue: { pending: number; indexPending?: number };
}

/**
 * Waits until every memory of a tenant is indexed (its vector and graph edges); of one user's scope when `userId` is
 * given (the queue figures count what the scope sees: without a user, shared memories only). A write answers once it is durable
 * and lexically findable, and the indexer embeds it afterwards; scoring hybrid before the indexer is done would rank
 * with part of the vectors, and the figures would depend on the machine's speed. It fails when the queue has not
 * shrunk for `timeoutMs` (a stuck indexer), not after a fixed time: a corpus of long messages embeds at about 10 a
 * second with the default encoder on two cores, and may take longer than that in all.
 */
export async function waitForIndex(
  server: InProcessServer,
  tenantId: string,
  { timeoutMs = 600_000, pollMs = 200, userId }: { timeoutMs?: number; pollMs?: number; userId?: string } = {},
): Promise<void> {
  const user = userId === undefined ? '' : `&userId=${encodeURIComponent(userId)}`;
  const route = `/management/embeddings/observability?tenantId=${encodeURIComponent(tenantId)}${user}`;
  let deadline = performance.now() + timeoutMs;
  let fewest = Number.POSITIVE_INFINITY;
  for (;;) {
    const { queue } = await server.call<QueueFigures>('GET', route);
    const left = queue.pending + (queue.indexPending ?? 0);
    if (left === 0) return;
    if (left < fewest) {
      fewest = left;
      deadline = performance.now() + timeoutMs;
    }
    if (performance.now() > deadline)
      throw new Error(`${tenantId}: ${left} memories still to index, none indexed in the last ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
