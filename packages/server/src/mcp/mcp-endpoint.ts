import {
  type ApiErrorObject,
  buildMeta,
  errorEnvelope,
  LIMITS,
  MCP_PATH,
  makeApiError,
} from '@memory-service/contract';
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  type McpRequestContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { ApiError } from '../api-error.js';
import { describeError } from '../describe-error.js';
import { authenticate, bearerToken } from '../pipeline/authenticate.js';
import type { HandlerTable } from '../pipeline/handler-types.js';
import type { Services } from '../services.js';
import { withMcpAccept } from './accept-header.js';
import { createMcpServer } from './mcp-server.js';
import { allowedOriginsOf, originAllowed } from './origin-check.js';
import { ResponseBudget } from './response-budget.js';

/** One HTTP request to the MCP endpoint, as the app sees it. */
export interface McpHttpRequest {
  request: Request;
  requestId: string;
  clientIp: string | null;
}

/** Serves the MCP endpoint: `fetch` answers one HTTP request. */
export interface McpEndpoint {
  fetch(call: McpHttpRequest): Promise<Response>;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * Checks the client address rate limit and the API key before any MCP message is read, so a missing or bad
 * key gets the contract's 401 envelope rather than a JSON-RPC error.
 */
async function admit(services: Services, call: McpHttpRequest): Promise<AuthInfo | Response> {
  const headers: Record<string, string> = {};
  const refuse = (error: ApiErrorObject) => {
    if (error.status === 401) headers['www-authenticate'] = 'Bearer realm="memory-service"';
    return jsonResponse(
      error.status,
      errorEnvelope(error, buildMeta(MCP_PATH, call.requestId, services.now())),
      headers,
    );
  };
  if (services.ipRateLimiter.enabled && call.clientIp !== null) {
    const decision = services.ipRateLimiter.take(`ip:${call.clientIp}`, services.now().getTime());
    if (!decision.allowed) {
      Object.assign(headers, {
        'Retry-After': String(decision.retryAfterSeconds),
        'X-RateLimit-Limit': String(decision.limit),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(decision.resetSeconds),
      });
      return refuse(
        makeApiError(
          'RATE_LIMITED',
          `Rate limit exceeded for this client address; retry after ${decision.retryAfterSeconds} s`,
          { retryAfterSeconds: decision.retryAfterSeconds, limit: decision.limit },
        ),
      );
    }
  }
  const authorization = call.request.headers.get('authorization') ?? '';
  try {
    const caller = await authenticate(services, 'apiKey', authorization);
    const authInfo: AuthInfo = {
      token: bearerToken(authorization) ?? '',
      clientId: caller.keyId ?? caller.kind,
      scopes: [],
      extra: { httpRequestId: call.requestId },
    };
    return authInfo;
  } catch (error) {
    if (error instanceof ApiError) return refuse(error.toObject());
    throw error;
  }
}

/**
 * Builds the stateless MCP endpoint over the v2 SDK. 2026-era requests go to `createMcpHandler` (its `auto`
 * response mode answers with one JSON body, since no tool sends notifications before its result; `json` would
 * do the same but warns on the console at every start); 2025-era requests (the `initialize` handshake) get a
 * fresh server and a stateless Streamable HTTP transport with JSON responses, mirroring the SDK's stateless
 * fallback without its SSE streams. Only POST is served (405 `Allow: POST` otherwise, before the key), and a
 * POST's missing or wildcard `Accept` is read as accepting both JSON and SSE (`withMcpAccept`).
 */
export function createMcpEndpoint(services: Services, handlers: HandlerTable): McpEndpoint {
  const maxRequestBodySize = LIMITS.requestBodyBytes;
  const allowedOrigins = allowedOriginsOf(services.config);
  const factory = (context: McpRequestContext) => {
    const authInfo = context.authInfo;
    const httpRequestId = authInfo?.extra?.httpRequestId;
    return createMcpServer(services, handlers, {
      authorization: authInfo === undefined ? undefined : `Bearer ${authInfo.token}`,
      httpRequestId: typeof httpRequestId === 'string' ? httpRequestId : null,
      // One per HTTP request (the SDK builds one server per request): a batch's calls share it.
      budget: new ResponseBudget(),
    });
  };
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    maxRequestBodySize,
    onerror: (error) => services.logger.warn('mcp transport error', { error: describeError(error) }),
  });

  async function serveLegacy(request: Request, authInfo: AuthInfo): Promise<Response> {
    const server = factory({ era: 'legacy', authInfo, requestInfo: request });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { authInfo });
    } finally {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  }

  return {
    fetch: async (call) => {
      // Before anything else, the key included: a browser page of another origin gets nothing (DNS rebinding).
      if (!originAllowed(call.request.headers.get('origin'), allowedOrigins)) {
        services.logger.warn('mcp origin refused', { requestId: call.requestId });
        const body = {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Forbidden: this Origin is not allowed' },
          id: null,
        };
        return jsonResponse(403, body, {});
      }
      if (call.request.method.toUpperCase() !== 'POST') {
        // Stateless: no session stream to open (GET) or end (DELETE); refused as a route would be, before the key.
        const body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
        return jsonResponse(405, body, { allow: 'POST' });
      }
      const admitted = await admit(services, call);
      if (admitted instanceof Response) return admitted;
      const request = withMcpAccept(call.request);
      return (await isLegacyRequest(request, undefined, { maxRequestBodySize }))
        ? await serveLegacy(request, admitted)
        : await modern.fetch(request, { authInfo: admitted });
    },
  };
}
