import type { Database } from '../store/database.js';

const noted = new WeakMap<Database, Map<string, string>>();

/** Records the model a project's memories are embedded with ('' = no project); writes only when it changes. */
export async function noteScopeModel(
  database: Database,
  projectId: string | null,
  modelId: string,
  now: Date,
): Promise<void> {
  const key = projectId ?? '';
  let cache = noted.get(database);
  if (cache === undefined) {
    cache = new Map();
    noted.set(database, cache);
  }
  if (cache.get(key) === modelId) return;
  await database.run(
    `INSERT INTO embedding_scope_models (project_key, model_id, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (project_key) DO UPDATE SET model_id = excluded.model_id, updated_at = excluded.updated_at`,
    [key, modelId, now.toISOString()],
  );
  cache.set(key, modelId);
}

/**
 * The model to embed a query of this scope with when the caller names none: the one the project's memories were last
 * written with, else the one of memories without a project. Undefined when nothing was ever embedded.
 */
export async function scopeModel(database: Database, projectId: string | null): Promise<string | undefined> {
  const rows = await database.all<{ project_key: string; model_id: string }>(
    'SELECT project_key, model_id FROM embedding_scope_models WHERE project_key IN (?, ?)',
    [projectId ?? '', ''],
  );
  const own = rows.find((row) => row.project_key === (projectId ?? ''));
  return (own ?? rows[0])?.model_id;
}
