import type { Database } from '../store/database.js';
import { CONTROL_CACHE_TTL_MS, TtlCache } from '../store/ttl-cache.js';

/** An owner's embedding configuration as stored in the control database. */
export interface EmbeddingConfigRows {
  allowlist: string[];
  projectOverrides: Array<{ projectId: string; modelId: string }>;
}

/** Reads the allowlist and the project overrides of an owner. */
export async function readEmbeddingConfig(database: Database, ownerId: string): Promise<EmbeddingConfigRows> {
  const allowlist = await database.all<{ model_id: string }>(
    'SELECT model_id FROM embedding_allowlist WHERE owner_id = ? ORDER BY model_id',
    [ownerId],
  );
  const overrides = await database.all<{ project_id: string; model_id: string }>(
    "SELECT project_id, model_id FROM embedding_config WHERE owner_id = ? AND project_id <> '' ORDER BY project_id",
    [ownerId],
  );
  return {
    allowlist: allowlist.map((row) => row.model_id),
    projectOverrides: overrides.map((row) => ({ projectId: row.project_id, modelId: row.model_id })),
  };
}

const cached = new WeakMap<Database, TtlCache<EmbeddingConfigRows>>();

function cacheOf(database: Database): TtlCache<EmbeddingConfigRows> {
  let cache = cached.get(database);
  if (cache === undefined) {
    cache = new TtlCache(CONTROL_CACHE_TTL_MS);
    cached.set(database, cache);
  }
  return cache;
}

/**
 * The owner's configuration as every write's model selection reads it: cached for the control-plane TTL (changes made
 * in this process apply at once; the CLI or another replica's within the TTL).
 */
export function cachedEmbeddingConfig(database: Database, ownerId: string): Promise<EmbeddingConfigRows> {
  return cacheOf(database).get(ownerId, () => readEmbeddingConfig(database, ownerId));
}

/** Adds a model to the owner's allowlist (idempotent). */
export async function allowModel(database: Database, ownerId: string, modelId: string): Promise<void> {
  cacheOf(database).delete(ownerId);
  await database.run('INSERT OR IGNORE INTO embedding_allowlist (owner_id, model_id) VALUES (?, ?)', [
    ownerId,
    modelId,
  ]);
}

/** Removes a model from the allowlist; returns whether it was there. */
export async function disallowModel(database: Database, ownerId: string, modelId: string): Promise<boolean> {
  cacheOf(database).delete(ownerId);
  return (
    (await database.run('DELETE FROM embedding_allowlist WHERE owner_id = ? AND model_id = ?', [ownerId, modelId])) > 0
  );
}

/** Sets a project's model (which the selection then allows), or clears it with `null`. */
export async function setProjectModel(
  database: Database,
  ownerId: string,
  projectId: string,
  modelId: string | null,
  now: Date,
): Promise<void> {
  cacheOf(database).delete(ownerId);
  if (modelId === null) {
    await database.run('DELETE FROM embedding_config WHERE owner_id = ? AND project_id = ?', [ownerId, projectId]);
    return;
  }
  await database.run(
    `INSERT INTO embedding_config (owner_id, project_id, model_id, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (owner_id, project_id) DO UPDATE SET model_id = excluded.model_id, updated_at = excluded.updated_at`,
    [ownerId, projectId, modelId, now.toISOString()],
  );
}
