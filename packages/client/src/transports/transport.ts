import type { OperationData, OperationId, OperationRequest } from '@memory-service/contract';
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
  /** Sent as the Bearer token of management routes when given (it wins over the API key there). */
  adminToken: string | undefined;
  /** The client's headers, sent on every request. */
  headers: Record<string, string>;
  fetch: FetchFunction | undefined;
  retry: RetryPolicy;
}

/** The Bearer token of an operation: the API key, or for `/management/*` routes the admin token when one is given. */
export function bearerTokenFor(operationId: OperationId, settings: TransportSettings): string | undefined {
  if (operationId.startsWith('management.')) return settings.adminToken ?? settings.apiKey;
  return settings.apiKey;
}
