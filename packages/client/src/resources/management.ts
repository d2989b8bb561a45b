import type { OperationRequest } from '@memory-service/contract';
import type { RequestOptions } from '../request-options.js';
import type { CallInput, OperationCaller, QueryInput } from '../types.js';

/** What the backfill actions take besides `action`. */
export type BackfillActionInput = Omit<CallInput<'management.embeddings.backfill.post'>, 'action'>;

/** `client.management`: keys, tenant mappings, embedding operations, observability and erasing a person. */
export function createManagementResource(call: OperationCaller) {
  const backfill = (action: 'run' | 'pause' | 'resume', input: BackfillActionInput, options?: RequestOptions) =>
    call('management.embeddings.backfill.post', { ...input, action }, options);
  return {
    keys: {
      /** Key status and inventory (never the keys themselves). */
      get: (options?: RequestOptions) => call('management.keys.get', {}, options),
      /** Creates an API key expiring at `expiresAt`; the key is returned once. */
      create: (input: OperationRequest<'management.keys.post'>, options?: RequestOptions) =>
        call('management.keys.post', input, options),
      /** Revokes one key by id, or every key when no id is given. */
      revoke: (keyId?: string, options?: RequestOptions) =>
        call('management.keys.delete', keyId === undefined ? {} : { keyId }, options),
    },
    tenants: {
      /** Lists tenant database mappings. */
      list: (query: QueryInput<'management.tenants.get'> = {}, options?: RequestOptions) =>
        call('management.tenants.get', query, options),
      /** Creates or updates a tenant mapping (`provision` or `attach`). */
      upsert: (input: OperationRequest<'management.tenants.post'>, options?: RequestOptions) =>
        call('management.tenants.post', input, options),
      /** Disables a tenant mapping. */
      disable: (tenantId: string, options?: RequestOptions) => call('management.tenants.delete', { tenantId }, options),
    },
    embeddings: {
      /** Embedding usage for a month, with a breakdown. */
      usage: (query: QueryInput<'management.embeddings.usage'> = {}, options?: RequestOptions) =>
        call('management.embeddings.usage', query, options),
      /** Embedding queue, worker, backfill, retrieval, cost, SLOs and alarms. */
      observability: (query: QueryInput<'management.embeddings.observability'> = {}, options?: RequestOptions) =>
        call('management.embeddings.observability', query, options),
      backfill: {
        /** Backfill status for the scope. */
        get: (query: QueryInput<'management.embeddings.backfill.get'> = {}, options?: RequestOptions) =>
          call('management.embeddings.backfill.get', query, options),
        /** Embeds one batch of memories that lack the model's vectors. */
        run: (input: BackfillActionInput = {}, options?: RequestOptions) => backfill('run', input, options),
        /** Pauses the backfill. */
        pause: (input: BackfillActionInput = {}, options?: RequestOptions) => backfill('pause', input, options),
        /** Resumes the backfill. */
        resume: (input: BackfillActionInput = {}, options?: RequestOptions) => backfill('resume', input, options),
      },
    },
    users: {
      /**
       * Erases every record of `userId` from one database (`tenantId`, or the workspace's own), for good, and answers
       * a receipt with a count per kind. Takes the admin token.
       */
      erase: (input: OperationRequest<'management.users.erase'>, options?: RequestOptions) =>
        call('management.users.erase', input, options),
    },
    memory: {
      /** Memory lifecycle, compaction, consolidation and contradiction figures. */
      observability: (query: QueryInput<'management.memory.observability'> = {}, options?: RequestOptions) =>
        call('management.memory.observability', query, options),
      /** Deterministic replay scoring of extraction, compaction retention and triggers. */
      evalReplay: (input: CallInput<'management.memory.evalReplay'>, options?: RequestOptions) =>
        call('management.memory.evalReplay', input, options),
    },
  };
}

/** The `client.management` resource. */
export type ManagementResource = ReturnType<typeof createManagementResource>;
