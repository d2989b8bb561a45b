import type { OperationRequest } from '@memory-service/contract';
import type { CallInput, OperationCaller, QueryInput } from '../types.js';

/** What the backfill actions take besides `action`. */
export type BackfillActionInput = Omit<CallInput<'management.embeddings.backfill.post'>, 'action'>;

/** `client.management`: keys, tenant mappings, embedding operations and observability. */
export function createManagementResource(call: OperationCaller) {
  const backfill = (action: 'run' | 'pause' | 'resume', input: BackfillActionInput) =>
    call('management.embeddings.backfill.post', { ...input, action });
  return {
    keys: {
      /** Key status and inventory (never the keys themselves). */
      get: () => call('management.keys.get', {}),
      /** Creates an API key expiring at `expiresAt`; the key is returned once. */
      create: (input: OperationRequest<'management.keys.post'>) => call('management.keys.post', input),
      /** Revokes one key by id, or every key when no id is given. */
      revoke: (keyId?: string) => call('management.keys.delete', keyId === undefined ? {} : { keyId }),
    },
    tenants: {
      /** Lists tenant database mappings. */
      list: (query: QueryInput<'management.tenants.get'> = {}) => call('management.tenants.get', query),
      /** Creates or updates a tenant mapping (`provision` or `attach`). */
      upsert: (input: OperationRequest<'management.tenants.post'>) => call('management.tenants.post', input),
      /** Disables a tenant mapping. */
      disable: (tenantId: string) => call('management.tenants.delete', { tenantId }),
    },
    embeddings: {
      /** Embedding usage for a month, with a breakdown. */
      usage: (query: QueryInput<'management.embeddings.usage'> = {}) => call('management.embeddings.usage', query),
      /** Embedding queue, worker, backfill, retrieval, cost, SLOs and alarms. */
      observability: (query: QueryInput<'management.embeddings.observability'> = {}) =>
        call('management.embeddings.observability', query),
      backfill: {
        /** Backfill status for the scope. */
        get: (query: QueryInput<'management.embeddings.backfill.get'> = {}) =>
          call('management.embeddings.backfill.get', query),
        /** Embeds one batch of memories that lack the model's vectors. */
        run: (input: BackfillActionInput = {}) => backfill('run', input),
        /** Pauses the backfill. */
        pause: (input: BackfillActionInput = {}) => backfill('pause', input),
        /** Resumes the backfill. */
        resume: (input: BackfillActionInput = {}) => backfill('resume', input),
      },
    },
    memory: {
      /** Memory lifecycle, compaction, consolidation and contradiction figures. */
      observability: (query: QueryInput<'management.memory.observability'> = {}) =>
        call('management.memory.observability', query),
      /** Deterministic replay scoring of extraction, compaction retention and triggers. */
      evalReplay: (input: CallInput<'management.memory.evalReplay'>) => call('management.memory.evalReplay', input),
    },
  };
}

/** The `client.management` resource. */
export type ManagementResource = ReturnType<typeof createManagementResource>;
