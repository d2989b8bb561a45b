import type { Database } from '../store/database.js';

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

/** Adds a model to the owner's allowlist (idempotent). */
export async function allowModel(database: Database, ownerId: string, modelId: string): Promise<void> {
  await database.run('INSERT OR IGNORE INTO embedding_allowlist (owner_id, model_id) VALUES (?, ?)', [
    ownerId,
    modelId,
  ]);
}

/** Removes a model from the allowlist; returns whether it was there. */
export async function disallowModel(database: Database, ownerId: string, modelId: string): Promise<boolean> {
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
