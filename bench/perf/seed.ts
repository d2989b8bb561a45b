import { randomBytes } from 'node:crypto';
import { Database } from '../../packages/server/src/store/database.js';
import { contentHash } from '../../packages/server/src/store/memories.js';
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
  let batch: Array<{ sql: string; args: Array<string | null> }> = [];
  for (const memory of generateMemories(count)) {
    batch.push({
      sql: `INSERT INTO memories (id, content, type, layer, tags, paths, category, metadata, user_id, project_id,
              embedding_model, superseded_by, content_hash, created_at, updated_at, expires_at, deleted_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, '{}', NULL, NULL, NULL, NULL, ?, ?, ?, NULL, NULL)`,
      args: [
        randomBytes(6).toString('hex'),
        memory.content,
        memory.type,
        memory.layer,
        JSON.stringify(memory.tags),
        JSON.stringify(memory.paths),
        memory.category,
        contentHash(memory.content),
        memory.createdAt,
        memory.createdAt,
      ],
    });
    if (batch.length === BATCH) {
      await database.transaction(batch);
      batch = [];
    }
  }
  await database.transaction(batch);
  await database.run("INSERT INTO memories_fts(memories_fts) VALUES ('optimize')");
  database.close();
  return { seconds: (performance.now() - started) / 1000 };
}
