import {
  AUTH_CREDENTIALS,
  type OperationData,
  type OperationId,
  type OperationRequest,
  operations,
} from '@memory-service/contract';
import type { CallSettings } from '../request-options.js';
import type { RetryPolicy } from '../retry.js';

/** The transports a client can use: JSON over HTTP, or MCP JSON-RPC `tools/call`. */
export type TransportName = 'sdk_http' | 'mcp';

/**
 * One operation call, retries included: input as the contract defines it in, envelope `data` out, typed errors on
 * failure (`RequestAbortedError` once the call's signal aborts).
 */
export interface Transport {
  <Id extends OperationId>(
    operationId: Id,
    input: OperationRequest<Id>,
    call: CallSettings,
  ): Promise<OperationData<Id>>;
  readonly transportName: TransportName;
  /** Releases the connection, if the transport keeps one. */
  close(): Promise<void>;
}

/** The `fetch` a transport calls; defaults to the global one. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What every transport needs to reach the server. */
export interface TransportSettings {
  /** The server's root URL, without `/api/sdk/v1` or `/api/mcp`. */
  rootUrl: string;
  apiKey: string | undefined;
  /** Sent as the Bearer token of the routes that take it, when given (it wins over the API key there). */
  adminToken: string | undefined;
  /** The client's headers, sent on every request. */
  headers: Record<string, string>;
  fetch: FetchFunction | undefined;
  retry: RetryPolicy;
}

/**
 * The Bearer token of an operation, from the credentials its route takes (the table's `auth`): the admin token where
 * the route takes it and one is given, else the API key (on a route that takes the admin token only, the server then
 * says why the key is refused).
 */
export function bearerTokenFor(operationId: OperationId, settings: TransportSettings): string | undefined {
  const takesAdminToken = AUTH_CREDENTIALS[operations[operationId].auth].includes('adminToken');
  if (takesAdminToken) return settings.adminToken ?? settings.apiKey;
  return settings.apiKey;
}
