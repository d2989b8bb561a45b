import type { OperationRequest } from '@memory-service/contract';
import type { CallInput, OperationCaller, QueryInput } from '../types.js';

/** `client.graph`: graph status, retrieval traces and the graph rollout. */
export function createGraphResource(call: OperationCaller) {
  return {
    /**
     * Graph counts, health, rollout and alarms. Sent as `POST /graph/status` when the call passes a `scope`
     * (the body form), else as `GET /graph/status` with the default scope in the query string.
     */
    status: (input: CallInput<'graph.status.post'> = {}) =>
      input.scope === undefined
        ? call('graph.status.get', input.topNodesLimit === undefined ? {} : { topNodesLimit: input.topNodesLimit })
        : call('graph.status.post', input),
    /** Explains a retrieval: strategy, tiers, rank and source of every recalled memory (legacy strategies accepted). */
    trace: (input: CallInput<'graph.trace'> = {}) => call('graph.trace', input),
    rollout: {
      /** Reads the rollout, quality gate and plan (the server may apply an autopilot promotion). */
      get: (query: QueryInput<'graph.rollout.get'> = {}) => call('graph.rollout.get', query),
      /** Sets the rollout mode (`off`, `shadow`, `canary`) for a tenant or project. */
      set: (input: OperationRequest<'graph.rollout.post'>) => call('graph.rollout.post', input),
    },
  };
}

/** The `client.graph` resource. */
export type GraphResource = ReturnType<typeof createGraphResource>;
