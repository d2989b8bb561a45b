import { API_PREFIX, MCP_PATH, type OperationData, type Scope } from '@memory-service/contract';
import {
  callSettings,
  checkLimits,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TOTAL_TIMEOUT_MS,
  type RequestOptions,
} from './request-options.js';
import { type ContextResource, createContextResource } from './resources/context.js';
import { createEmbeddingsResource, type EmbeddingsResource } from './resources/embeddings.js';
import { createGraphResource, type GraphResource } from './resources/graph.js';
import { createHealthResource } from './resources/health.js';
import { createManagementResource, type ManagementResource } from './resources/management.js';
import { createMemoriesResource, type MemoriesResource } from './resources/memories.js';
import { createSessionsResource, type SessionsResource } from './resources/sessions.js';
import { createSkillsResource, type SkillsResource } from './resources/skills.js';
import { createRetryPolicy, type RetryOptions } from './retry.js';
import { applyScope } from './scope.js';
import { createHttpTransport } from './transports/http-transport.js';
import { createMcpTransport } from './transports/mcp-transport.js';
import type { FetchFunction, TransportName } from './transports/transport.js';
import type { OperationCaller } from './types.js';

/** How the client reaches the server: `auto` picks `mcp` when the base URL ends in `/api/mcp`, else `sdk_http`. */
export type TransportOption = 'auto' | TransportName;

/** Options of `createMemoryClient`; every one is optional. */
export interface MemoryClientOptions {
  /** The server (`https://memory.example.com`), also accepted with `/api/sdk/v1` or `/api/mcp`; else `MEMORY_BASE_URL`. */
  baseUrl?: string | undefined;
  /** A `mem_` API key sent as `Authorization: Bearer`; else `MEMORY_API_KEY`. */
  apiKey?: string | undefined;
  /** The server's admin token, sent on the routes that take it (`/management/*`, `embeddings/models`; it wins over `apiKey` there). */
  adminToken?: string | undefined;
  /** `auto` (default), `sdk_http` or `mcp`. */
  transport?: TransportOption | undefined;
  /** Default scope of every call; a call's own `scope` is merged over it. */
  scope?: Scope | undefined;
  /** The `fetch` to use (both transports); defaults to the global one. */
  fetch?: FetchFunction | undefined;
  /** Per-attempt timeout in milliseconds (default 10000); a call's `timeoutMs` overrides it. */
  timeoutMs?: number | undefined;
  /**
   * The whole call in milliseconds, retries and their waits included (default 15000; `false`: no limit); a call's
   * `totalTimeoutMs` overrides it. A retry whose wait would end past it is not made.
   */
  totalTimeoutMs?: number | false | undefined;
  /** Retries after the first attempt (default 2); a call's `maxRetries` overrides it. See `retry.ts` for which failures. */
  maxRetries?: number | undefined;
  /** Extra headers on every request; a call's `headers` are set over them. */
  headers?: Record<string, string> | undefined;
  /** Backoff tuning: initial delay, cap, longest honoured `Retry-After`, jitter source. */
  retry?: RetryOptions | undefined;
}

/** A memory service client: one property per resource, each method returning the envelope's `data`. */
export interface MemoryClient {
  /** The transport in use after `auto` was resolved. */
  readonly transport: TransportName;
  /** Service status and contract version. */
  health: (options?: RequestOptions) => Promise<OperationData<'health'>>;
  context: ContextResource;
  memories: MemoriesResource;
  skills: SkillsResource;
  sessions: SessionsResource;
  embeddings: EmbeddingsResource;
  graph: GraphResource;
  management: ManagementResource;
  /** Closes the MCP connection, if one is open (a no-op over HTTP). */
  close: () => Promise<void>;
}

function environment(name: string): string | undefined {
  const value = globalThis.process?.env?.[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Splits a base URL into the server root and whether it pointed at the MCP endpoint. */
export function resolveBaseUrl(baseUrl: string): { rootUrl: string; pointsAtMcp: boolean } {
  const url = new URL(baseUrl);
  let path = url.pathname.replace(/\/+$/, '');
  const pointsAtMcp = path.endsWith(MCP_PATH);
  if (path.endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  else if (pointsAtMcp) path = path.slice(0, -MCP_PATH.length);
  return { rootUrl: `${url.origin}${path}`, pointsAtMcp };
}

/**
 * Creates a memory service client.
 *
 * @example
 * ```ts
 * const client = createMemoryClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.MEMORY_API_KEY });
 * await client.memories.add({ content: 'Deploys go out on Tuesdays', type: 'rule' });
 * const context = await client.context.get({ query: 'when do we deploy?' });
 * ```
 */
export function createMemoryClient({
  baseUrl = environment('MEMORY_BASE_URL'),
  apiKey = environment('MEMORY_API_KEY'),
  adminToken,
  transport = 'auto',
  scope,
  fetch,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  totalTimeoutMs = DEFAULT_TOTAL_TIMEOUT_MS,
  maxRetries = DEFAULT_MAX_RETRIES,
  headers = {},
  retry = {},
}: MemoryClientOptions = {}): MemoryClient {
  if (baseUrl === undefined) throw new TypeError('baseUrl is missing: pass baseUrl or set MEMORY_BASE_URL');
  const limits = { timeoutMs, totalTimeoutMs, maxRetries };
  checkLimits(limits);
  if (!['auto', 'sdk_http', 'mcp'].includes(transport)) {
    throw new TypeError(`transport must be 'auto', 'sdk_http' or 'mcp', not '${transport}'`);
  }
  const { rootUrl, pointsAtMcp } = resolveBaseUrl(baseUrl);
  const transportName: TransportName = transport === 'auto' ? (pointsAtMcp ? 'mcp' : 'sdk_http') : transport;
  const settings = { rootUrl, apiKey, adminToken, headers, fetch, retry: createRetryPolicy(retry) };
  const send = transportName === 'mcp' ? createMcpTransport(settings) : createHttpTransport(settings);

  const call: OperationCaller = async (operationId, input, options) => {
    const request = applyScope(operationId, input as Record<string, unknown>, scope);
    return send(operationId, request, callSettings(limits, options));
  };

  return {
    transport: transportName,
    health: createHealthResource(call),
    context: createContextResource(call),
    memories: createMemoriesResource(call),
    skills: createSkillsResource(call),
    sessions: createSessionsResource(call),
    embeddings: createEmbeddingsResource(call),
    graph: createGraphResource(call),
    management: createManagementResource(call),
    close: () => send.close(),
  };
}
