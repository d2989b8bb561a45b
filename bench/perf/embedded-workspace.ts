import { createBuiltInRegistry } from '../../packages/server/src/embeddings/default-registry.js';
import { embedMemories } from '../../packages/server/src/embeddings/embed-memories.js';
import { Database } from '../../packages/server/src/store/database.js';
import { MEMORY_COLUMNS, type MemoryRow } from '../../packages/server/src/store/memory-rows.js';
import { TenantDatabase } from '../../packages/server/src/tenancy/tenant-database.js';
import { seedWorkspace } from './seed.js';

/** Memories embedded per call: two calls in flight keep the encoder busy while the other's vectors are written. */
const CHUNK = 256;

/**
 * Seeds a workspace database file with `count` generated memories (`seedWorkspace`) and stores their vectors of a
 * built-in model (`local/use-lite-512`, the default encoder, or `local/hash-384`), in-process, through the server's own
 * `embedMemories` (as the backfill does, so the scope's model is recorded): hybrid reads can then be measured on the
 * default encoder's vectors, not only hash-384's. The encoder takes 15-45 ms a memory here: use it for small sizes.
 */
export async function seedEmbeddedWorkspace(
  databaseUrl: string,
  count: number,
  modelId: string,
  progress: (done: number) => void = () => undefined,
): Promise<{ seedSeconds: number; vectorSeconds: number }> {
  const seeded = await seedWorkspace(databaseUrl, count);
  const started = performance.now();
  const database = await Database.open({ url: databaseUrl });
  const tenant = new TenantDatabase('bench', null, database);
  const registry = createBuiltInRegistry();
  let cursor = 0;
  let done = 0;
  const nextChunk = async (): Promise<MemoryRow[]> => {
    const from = cursor;
    cursor += CHUNK;
    return database.all<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE seq > ? AND seq <= ? ORDER BY seq`, [
      from,
      from + CHUNK,
    ]);
  };
  const lane = async () => {
    for (;;) {
      const rows = await nextChunk();
      if (rows.length === 0) return;
      const outcome = await embedMemories({ tenant, registry, modelId, origin: 'backfill', now: new Date() }, rows);
      if (outcome.failed > 0) throw new Error(`embedding failed: ${outcome.error?.code}`);
      done += rows.length;
      progress(done);
    }
  };
  await Promise.all([lane(), lane()]);
  await database.close();
  return { seedSeconds: seeded.seconds, vectorSeconds: (performance.now() - started) / 1000 };
}
