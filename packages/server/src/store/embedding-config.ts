import { controlCache } from './control-cache.js';
import type { Database } from './database.js';

/** An owner's embedding configuration as stored in the control database. */
export interface EmbeddingConfigRows {
  allowlist: string[];
  projectOverrides: Array<{ projectId: string; modelId: string }>;
}

/**
 * Owners' embedding allowlists and project overrides in the control database. Every write's model selection reads
 * them, so reads are cached for the control-plane TTL: changes made through this store apply at once, the CLI's or
 * another replica's within the TTL.
 */
export class EmbeddingConfigStore {
  private readonly cached = controlCache<EmbeddingConfigRows>();

  constructor(private readonly database: Database) {}

  /** Drops every cached configuration (after a write behind this store's back). */
  clear(): void {
    this.cached.drop();
  }

  /** The owner's configuration, cached (see the class). */
  async cachedFor(ownerId: string): Promise<EmbeddingConfigRows> {
    return this.cached.read(ownerId, () => this.read(ownerId));
  }

  /** Reads the allowlist and the project overrides of an owner. */
  async read(ownerId: string): Promise<EmbeddingConfigRows> {
    const allowlist = await this.database.all<{ model_id: string }>(
      'SELECT model_id FROM embedding_allowlist WHERE owner_id = ? ORDER BY model_id',
      [ownerId],
    );
    const overrides = await this.database.all<{ project_id: string; model_id: string }>(
      "SELECT project_id, model_id FROM embedding_config WHERE owner_id = ? AND project_id <> '' ORDER BY project_id",
      [ownerId],
    );
    return {
      allowlist: allowlist.map((row) => row.model_id),
      projectOverrides: overrides.map((row) => ({ projectId: row.project_id, modelId: row.model_id })),
    };
  }

  /** Adds a model to the owner's allowlist (idempotent). */
  async allow(ownerId: string, modelId: string): Promise<void> {
    await this.cached.writing(ownerId, () =>
      this.database.run('INSERT OR IGNORE INTO embedding_allowlist (owner_id, model_id) VALUES (?, ?)', [
        ownerId,
        modelId,
      ]),
    );
  }

  /** Removes a model from the allowlist; returns whether it was there. */
  async disallow(ownerId: string, modelId: string): Promise<boolean> {
    const removed = await this.cached.writing(ownerId, () =>
      this.database.run('DELETE FROM embedding_allowlist WHERE owner_id = ? AND model_id = ?', [ownerId, modelId]),
    );
    return removed > 0;
  }

  /** Sets a project's model (which the selection then allows), or clears it with `null`. */
  async setProjectModel(ownerId: string, projectId: string, modelId: string | null, now: Date): Promise<void> {
    await this.cached.writing(ownerId, () =>
      modelId === null
        ? this.database.run('DELETE FROM embedding_config WHERE owner_id = ? AND project_id = ?', [ownerId, projectId])
        : this.database.run(
            `INSERT INTO embedding_config (owner_id, project_id, model_id, updated_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (owner_id, project_id) DO UPDATE SET model_id = excluded.model_id,
               updated_at = excluded.updated_at`,
            [ownerId, projectId, modelId, now.toISOString()],
          ),
    );
  }
}
