import type { Database } from './database.js';
import { perDatabaseCache } from './per-database-cache.js';

/** Projects whose last noted model one database remembers (a write skips the upsert when it is unchanged). */
const MAX_NOTED = 10_000;

/**
 * The embedding model each project's memories were last embedded with ('' = no project): a query that names no model
 * is embedded with it.
 */
export class ScopeModels {
  private readonly noted = perDatabaseCache<string, string>(MAX_NOTED);

  constructor(private readonly database: Database) {}

  /** Records the model a project's memories are embedded with; writes only when it changes. */
  async note(projectId: string | null, modelId: string, now: Date): Promise<void> {
    const key = projectId ?? '';
    if (this.noted.get(key) === modelId) return;
    await this.database.run(
      `INSERT INTO embedding_scope_models (project_key, model_id, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (project_key) DO UPDATE SET model_id = excluded.model_id, updated_at = excluded.updated_at`,
      [key, modelId, now.toISOString()],
    );
    this.noted.set(key, modelId);
  }

  /**
   * The model to embed a query of this scope with when the caller names none: the one the project's memories were
   * last written with, else the one of memories without a project. Undefined when nothing was ever embedded.
   */
  async modelFor(projectId: string | null): Promise<string | undefined> {
    const rows = await this.database.all<{ project_key: string; model_id: string }>(
      'SELECT project_key, model_id FROM embedding_scope_models WHERE project_key IN (?, ?)',
      [projectId ?? '', ''],
    );
    const own = rows.find((row) => row.project_key === (projectId ?? ''));
    return (own ?? rows[0])?.model_id;
  }
}
