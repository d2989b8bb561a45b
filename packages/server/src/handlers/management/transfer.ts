import { TRANSFER_LIMITS } from '@memory-service/contract';
import { ApiError } from '../../api-error.js';
import type { StreamedHandler } from '../../pipeline/handler-types.js';
import { checkImport, type ImportOptions } from '../../transfer/check-import.js';
import { exportSources } from '../../transfer/data-dir.js';
import { exportChunks } from '../../transfer/export-lines.js';
import { TransferError } from '../../transfer/transfer-error.js';
import { writeImport } from '../../transfer/write-import.js';

/**
 * `GET /management/export`: the caller's workspace (its own database and every ready tenant, or only `tenantId`) as
 * the lines of docs/export-format.md, read page by page as the client takes them. A failure after the first line
 * ends the stream without its trailer, which an import refuses as truncated.
 */
export const exportWorkspace: StreamedHandler<'management.export'> = async (input, context) => {
  const { services, caller, now } = context;
  if (input.tenantId !== undefined && (await services.registry.find(caller.ownerId, input.tenantId)) === undefined) {
    throw new ApiError('TENANT_NOT_FOUND', `No mapping for tenant '${input.tenantId}' belongs to this owner`);
  }
  const sources = await exportSources(services, { workspace: caller.ownerId, tenantId: input.tenantId, now });
  return { kind: 'lines', lines: exportChunks(sources, { withVectors: input.withVectors === 'true', now }) };
};

/** The body, whole: its size was capped by the body limit (`TRANSFER_LIMITS.importBodyBytes`) as it arrived. */
async function readBody(body: AsyncIterable<Uint8Array> | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  if (body !== null) for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * `POST /management/import`: checks the whole body (a damaged file answers 400 INVALID_REQUEST with `details.line`,
 * nothing written), then writes each database of the file into the caller's workspace (the file's workspace ids are
 * not used: a key or token acts for its own workspace only), one transaction each, as upserts by id.
 */
export const importIntoWorkspace: StreamedHandler<'management.import'> = async (input, context) => {
  const { services, caller, now } = context;
  const body = await readBody(context.body);
  if (body.length === 0)
    throw new ApiError('INVALID_REQUEST', 'The body is empty: send an export file', { field: 'body' });
  const source = async function* () {
    yield body;
  };
  const options: ImportOptions = {
    tenantId: input.tenantId,
    mem0Target: { workspace: caller.ownerId, workspaceName: null, tenantId: input.tenantId ?? null },
    mem0: { now },
    maxDocumentBytes: TRANSFER_LIMITS.importBodyBytes,
  };
  let plan: Awaited<ReturnType<typeof checkImport>>;
  try {
    plan = await checkImport(source, options);
  } catch (error) {
    if (!(error instanceof TransferError)) throw error;
    throw new ApiError('INVALID_REQUEST', `The import was refused, nothing was written: ${error.message}`, {
      field: 'body',
      line: error.line,
    });
  }
  const result = await writeImport(source, plan, {
    ...options,
    withVectors: input.withVectors === 'true',
    now,
    // Through the server's own handle of each database (leased while it is written), in one transaction.
    open: async (target) => {
      const lease = await services.resolver.lease(caller.ownerId, target.tenantId, now, { createTenant: true });
      return {
        database: lease.handle.database,
        connection: 'shared',
        release: async () => {
          // Its indexer takes the queued memories now.
          services.indexing.jobsQueued(lease.handle);
          lease.release();
        },
      };
    },
  });
  const counts = { ...plan.counts, ...(input.withVectors === 'true' ? {} : { vector: 0 }) };
  return {
    kind: 'data',
    data: {
      format: plan.format,
      databases: result.databases.map(({ tenantId, records }) => ({ workspace: caller.ownerId, tenantId, records })),
      counts,
      queuedForIndexing: result.queuedForIndexing,
    },
  };
};
