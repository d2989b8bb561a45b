import type { EmbeddingModelSource } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { Services } from '../services.js';

/** The embedding model chosen for a write, and where the choice came from. */
export interface EmbeddingSelection {
  modelId: string;
  source: EmbeddingModelSource;
  workspaceDefaultModelId: string;
  projectOverrideModelId: string | null;
  allowlistModelIds: string[];
}

/**
 * Selects the embedding model: the request's model > the project's override > the workspace default
 * (MEMORY_EMBEDDING_MODEL), within the owner's allowlist (an empty allowlist allows the defaults only).
 */
export async function selectEmbeddingModel(
  services: Services,
  ownerId: string,
  projectId: string | null,
  requested: string | undefined,
): Promise<EmbeddingSelection> {
  const database = services.control.database;
  const workspaceDefault = services.config.embeddingModel;
  const override =
    projectId === null
      ? undefined
      : await database.get<{ model_id: string }>(
          'SELECT model_id FROM embedding_config WHERE owner_id = ? AND project_id = ?',
          [ownerId, projectId],
        );
  const allowlist = (
    await database.all<{ model_id: string }>(
      'SELECT model_id FROM embedding_allowlist WHERE owner_id = ? ORDER BY model_id',
      [ownerId],
    )
  ).map((row) => row.model_id);
  const allowed = new Set([workspaceDefault, ...(override ? [override.model_id] : []), ...allowlist]);
  const base = {
    workspaceDefaultModelId: workspaceDefault,
    projectOverrideModelId: override?.model_id ?? null,
    allowlistModelIds: [...allowed].sort(),
  };
  if (requested !== undefined) {
    if (!allowed.has(requested)) {
      throw new ApiError('EMBEDDING_MODEL_NOT_ALLOWED', `Embedding model '${requested}' is not in the allowlist`, {
        field: 'embeddingModel',
        allowlistModelIds: base.allowlistModelIds,
      });
    }
    return { modelId: requested, source: 'request', ...base };
  }
  if (override) return { modelId: override.model_id, source: 'project_override', ...base };
  return { modelId: workspaceDefault, source: 'workspace_default', ...base };
}
