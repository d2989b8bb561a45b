import type { EmbeddingModelSource } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { Services } from '../services.js';
import { cachedEmbeddingConfig } from './config-store.js';

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
  const workspaceDefault = services.config.embeddingModel;
  const config = await cachedEmbeddingConfig(services.control.database, ownerId);
  const override = config.projectOverrides.find((entry) => entry.projectId === projectId);
  const allowlist = config.allowlist;
  const allowed = new Set([workspaceDefault, ...(override ? [override.modelId] : []), ...allowlist]);
  const base = {
    workspaceDefaultModelId: workspaceDefault,
    projectOverrideModelId: override?.modelId ?? null,
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
  if (override) return { modelId: override.modelId, source: 'project_override', ...base };
  return { modelId: workspaceDefault, source: 'workspace_default', ...base };
}
