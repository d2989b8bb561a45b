import { EMBEDDING_CONFIG_SOURCE_OF } from '@memory-service/contract';
import { ApiError } from '../api-error.js';
import { backfillStatus, runBackfillBatch, setBackfillPaused } from '../embeddings/backfill.js';
import { splitModelId } from '../embeddings/model-definition.js';
import { embeddingsObservability } from '../embeddings/observability.js';
import { selectEmbeddingModel } from '../embeddings/selection.js';
import type { Handler, HandlerContext } from '../pipeline/handler-types.js';
import { monthStart, type UsageFigures, usageReport } from '../store/embedding-usage.js';

/** `embeddings/models`: every model the server knows, and the selection resolved for the request. */
export const listEmbeddingModels: Handler<'embeddings.models'> = async (input, context) => {
  const registry = context.services.embeddings;
  const selection = await selectEmbeddingModel(
    context.services,
    context.caller.ownerId,
    context.scope.projectId,
    input.embeddingModel,
  );
  const allowed = new Set(selection.allowlistModelIds);
  const known = registry.list();
  // A configured id the registry does not know (e.g. a typo in MEMORY_EMBEDDING_MODEL) is listed as unavailable.
  const unknown = selection.allowlistModelIds.filter((id) => registry.describe(id) === undefined);
  return {
    models: [
      ...known.map((model) => ({
        id: model.id,
        provider: model.provider,
        name: model.name,
        dimensions: model.dimensions,
        available: model.available,
        allowed: allowed.has(model.id),
        local: model.local,
        costPerMillionTokensUsd: model.costPerMillionTokensUsd,
        ...catalogueFields(model.costPerMillionTokensUsd, model.local),
      })),
      ...unknown.map((id) => ({
        id,
        ...splitModelId(id),
        dimensions: 0,
        available: false,
        allowed: true,
        local: false,
        costPerMillionTokensUsd: 0,
        ...catalogueFields(null, false),
      })),
    ],
    config: {
      selectedModelId: selection.modelId,
      source: EMBEDDING_CONFIG_SOURCE_OF[selection.source],
      selectionSource: selection.source,
      workspaceDefaultModelId: selection.workspaceDefaultModelId,
      projectOverrideModelId: selection.projectOverrideModelId,
      allowlistModelIds: selection.allowlistModelIds,
    },
  };
};

/** The fields of a memories.sh catalogue entry that ours lacks; `costPerMillion` null when the price is not known. */
function catalogueFields(costPerMillion: number | null, local: boolean) {
  const perToken = costPerMillion === null ? null : costPerMillion / 1_000_000;
  return {
    description: null,
    contextWindow: null,
    pricing: { input: perToken === null ? null : String(perToken) },
    inputCostUsdPerToken: perToken,
    tags: local ? ['local'] : [],
  };
}

/** A `YYYY-MM-DD` date's month start, or the current month's. */
function usageMonthOf(date: string | undefined, now: Date): string {
  return date === undefined ? monthStart(now) : `${date.slice(0, 7)}-01`;
}

/** `management/embeddings/usage`: the month's embedding usage of the tenant, optionally one project's. */
export const embeddingsUsage: Handler<'management.embeddings.usage'> = async (input, context) => {
  const { database } = await context.tenant();
  const usageMonth = usageMonthOf(input.usageMonth, context.now);
  // Every row (a month has few), so that the summary's estimated count covers the rows past `limit` too.
  const report = await usageReport(database, {
    usageMonth,
    projectId: context.scope.projectId,
    limit: Number.MAX_SAFE_INTEGER,
  });
  const estimated = report.breakdown.filter((row) => row.provider === LOCAL_PROVIDER);
  const estimatedRequestCount = estimated.reduce((total, row) => total + row.requestCount, 0);
  return {
    usageMonth,
    summary: withUpstreamFigures(report.summary, usageMonth, estimatedRequestCount),
    breakdown: report.breakdown
      .slice(0, input.limit)
      .map((row) => withUpstreamFigures(row, usageMonth, row.provider === LOCAL_PROVIDER ? row.requestCount : 0)),
  };
};

/** The provider of the models that run in the server: their tokens are counted here, not reported by a provider. */
const LOCAL_PROVIDER = 'local';

/**
 * Usage figures with the memories.sh fields beside ours: `estimatedRequestCount` counts the requests whose tokens the
 * server counted itself (in-process models; a remote provider reports its own), and the one cost figure (tokens at
 * the model's list price) stands for upstream's gateway, market and customer costs.
 */
function withUpstreamFigures<Figures extends UsageFigures>(
  figures: Figures,
  usageMonth: string,
  estimatedRequestCount: number,
) {
  return {
    ...figures,
    usageMonth,
    estimatedRequestCount,
    inputTokens: figures.tokenCount,
    gatewayCostUsd: figures.estimatedCostUsd,
    marketCostUsd: figures.estimatedCostUsd,
    customerCostUsd: figures.estimatedCostUsd,
  };
}

/** The model a backfill or report is about: the one named, else the scope's selected model. */
async function modelFor(context: HandlerContext, modelId: string | undefined): Promise<string> {
  if (modelId !== undefined) return modelId;
  return (await selectEmbeddingModel(context.services, context.caller.ownerId, context.scope.projectId, undefined))
    .modelId;
}

/** `GET management/embeddings/backfill`: the backfill's status for the scope and model. */
export const getEmbeddingsBackfill: Handler<'management.embeddings.backfill.get'> = async (input, context) => {
  const tenant = await context.tenant();
  const backfill = await backfillStatus(tenant, context.scope, await modelFor(context, input.modelId));
  return { scope: context.scope, backfill, action: null, batch: null, message: `Backfill is ${backfill.state}` };
};

/** `POST management/embeddings/backfill`: `run` embeds one batch (nothing while paused); `pause` and `resume` toggle. */
export const postEmbeddingsBackfill: Handler<'management.embeddings.backfill.post'> = async (input, context) => {
  const tenant = await context.tenant();
  const modelId = await modelFor(context, input.modelId);
  const registry = context.services.embeddings;
  if (input.action === 'run') {
    // Embedding costs money with remote models: a named model must be one the owner's allowlist allows.
    if (input.modelId !== undefined)
      await selectEmbeddingModel(context.services, context.caller.ownerId, context.scope.projectId, input.modelId);
    if (registry.describe(modelId) === undefined)
      throw new ApiError('INVALID_REQUEST', `Embedding model '${modelId}' is not known to this server`, {
        field: 'modelId',
      });
  }
  let batch: { processed: number; failed: number } | null = null;
  let message: string;
  if (input.action === 'run') {
    const run = await runBackfillBatch({ tenant, registry, now: context.now }, context.scope, modelId, input.batchSize);
    batch = { processed: run.processed, failed: run.failed };
    message = run.paused
      ? 'Backfill is paused; nothing was processed (resume it first)'
      : `Embedded ${run.processed} memories; ${run.failed} failed`;
  } else {
    await setBackfillPaused(tenant.database, context.scope, modelId, input.action === 'pause', context.now);
    message = input.action === 'pause' ? 'Backfill paused' : 'Backfill resumed';
  }
  const backfill = await backfillStatus(tenant, context.scope, modelId);
  return { scope: context.scope, backfill, action: input.action, batch, message };
};

/** `management/embeddings/observability`: queue, worker, backfill, retrieval, cost, SLOs, alarms and health. */
export const getEmbeddingsObservability: Handler<'management.embeddings.observability'> = async (input, context) => {
  return embeddingsObservability(await context.tenant(), context.services.embeddings, {
    scope: context.scope,
    modelId: await modelFor(context, input.modelId),
    ...(input.modelId === undefined ? {} : { modelFilter: input.modelId }),
    usageMonth: usageMonthOf(input.usageMonth, context.now),
    windowHours: input.windowHours,
    now: context.now,
  });
};
