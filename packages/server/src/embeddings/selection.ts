import type { EmbeddingModelSource } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import type { ServerConfig } from '../config.js';
import type { ControlStore } from '../store/control-store.js';

/** The embedding model chosen for a write, and where the choice came from. */
export interface EmbeddingSelection {
  modelId: string;
  source: EmbeddingModelSource;
  workspaceDefaultModelId: string;
  projectOverrideModelId: string | null;
  allowlistModelIds: string[];
}

/** What a selection reads: the workspace default (MEMORY_EMBEDDING_MODEL) and the owner's stored embedding settings. */
export interface SelectionSources {
  config: Pick<ServerConfig, 'embeddingModel'>;
  control: Pick<ControlStore, 'embeddingConfig'>;
}

/**
 * Selects the embedding model: the request's model > the project's override > the workspace default
 * (MEMORY_EMBEDDING_MODEL), within the owner's allowlist (an empty allowlist allows the defaults only).
 */
export async function selectEmbeddingModel(
  sources: SelectionSources,
  ownerId: string,
  projectId: string | null,
  requested: string | undefined,
): Promise<EmbeddingSelection> {
  const workspaceDefault = sources.config.embeddingModel;
  const config = await sources.control.embeddingConfig.cachedFor(ownerId);
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

/**
 * The model of an edited memory: the request's, else the memory's own (`stored`), else the default selection. A
 * stored model the allowlist no longer allows falls back to the default selection; a requested one is an error.
 */
export async function selectEditModel(
  sources: SelectionSources,
  ownerId: string,
  projectId: string | null,
  requested: string | undefined,
  stored: string | null,
): Promise<EmbeddingSelection> {
  return selectEmbeddingModel(sources, ownerId, projectId, requested ?? stored ?? undefined).catch((error: unknown) => {
    if (requested !== undefined) throw error;
    return selectEmbeddingModel(sources, ownerId, projectId, undefined);
  });
}
