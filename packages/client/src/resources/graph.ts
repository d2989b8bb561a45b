import type { OperationRequest } from '@memory-service/contract';
import type { RequestOptions } from '../request-options.js';
import type { CallInput, OperationCaller, QueryInput } from '../types.js';

/** `client.graph`: graph status, retrieval traces and the graph rollout. */
export function createGraphResource(call: OperationCaller) {
  return {
    /**
     * Graph counts, health, rollout and alarms. Sent as `POST /graph/status` when the call passes a `scope`
     * (the body form), else as `GET /graph/status` with the default scope in the query string.
     */
    status: (input: CallInput<'graph.status.post'> = {}, options?: RequestOptions) =>
      input.scope === undefined
        ? call(
            'graph.status.get',
            input.topNodesLimit === undefined ? {} : { topNodesLimit: input.topNodesLimit },
            options,
          )
        : call('graph.status.post', input, options),
    /** Explains a retrieval: strategy, tiers, rank and source of every recalled memory (legacy strategies accepted). */
    trace: (input: CallInput<'graph.trace'> = {}, options?: RequestOptions) => call('graph.trace', input, options),
    rollout: {
      /** Reads the rollout, quality gate and plan (the server may apply an autopilot promotion). */
      get: (query: QueryInput<'graph.rollout.get'> = {}, options?: RequestOptions) =>
        call('graph.rollout.get', query, options),
      /** Sets the rollout mode (`off`, `shadow`, `canary`) for a tenant or project. */
      set: (input: OperationRequest<'graph.rollout.post'>, options?: RequestOptions) =>
        call('graph.rollout.post', input, options),
    },
  };
}

/** The `client.graph` resource. */
export type GraphResource = ReturnType<typeof createGraphResource>;
