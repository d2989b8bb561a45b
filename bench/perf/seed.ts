import { Database } from '../../packages/server/src/store/database.js';
import { memoryInsertStatement, newMemoryId } from '../../packages/server/src/store/memory-rows.js';
import { migrate } from '../../packages/server/src/store/migrate.js';
import { tenantMigrations } from '../../packages/server/src/store/migrations/tenant.js';
import { generateMemories } from './seed-data.js';

const BATCH = 1000;

/**
 * Seeds a workspace database file with `count` generated memories. This writes through the server's own
 * storage layer (schema migrations, FTS triggers) directly, in batched transactions, not over HTTP: seeding
 * 100k memories through the API would measure the seeding, not the reads.
 */
export async function seedWorkspace(databaseUrl: string, count: number): Promise<{ seconds: number }> {
  const started = performance.now();
  const database = await Database.open({ url: databaseUrl });
  await migrate(database, tenantMigrations);
  let batch: Array<ReturnType<typeof memoryInsertStatement>> = [];
  for (const memory of generateMemories(count)) {
    batch.push(
      memoryInsertStatement(
        newMemoryId(),
        { ...memory, metadata: {}, embeddingModel: null, expiresAt: null },
        { tenantId: null, userId: null, projectId: null },
        memory.createdAt,
      ),
    );
    if (batch.length === BATCH) {
      await database.transaction(batch);
      batch = [];
    }
  }
  await database.transaction(batch);
  await database.run("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')");
  await database.close();
  return { seconds: (performance.now() - started) / 1000 };
}
