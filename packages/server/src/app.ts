import {
  API_PREFIX,
  buildMeta,
  errorEnvelope,
  makeApiError,
  type OperationDefinition,
  operationList,
} from '@memory-service/contract';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { ApiError } from './api-error.js';
import { registerDocs } from './docs.js';
import { defaultHandlers } from './handlers/index.js';
import type { HandlerTable } from './handlers/types.js';
import { registerMcp } from './mcp/register-mcp.js';
import { readOperationInput } from './pipeline/read-input.js';
import { clientIpOf, requestIdOf } from './pipeline/request-meta.js';
import { runOperation } from './pipeline/run-operation.js';
import type { Services } from './services.js';

function honoPath(operation: OperationDefinition): string {
  return `${API_PREFIX}${operation.path.replace(/\{(\w+)\}/g, ':$1')}`;
}

/**
 * Builds the Hono app: every operation of the contract's table mounted through the one pipeline, MCP at
 * `/api/mcp`, the OpenAPI document and `/docs`. Tests call `app.request()` with no port.
 */
export function createApp(services: Services, handlers: HandlerTable = defaultHandlers): Hono {
  const app = new Hono();
  app.use(
    '*',
    cors({
      origin: '*',
      allowHeaders: [
        'Authorization',
        'Content-Type',
        'X-Request-Id',
        'Mcp-Protocol-Version',
        'Mcp-Session-Id',
        'Mcp-Method',
        'Mcp-Name',
        'Last-Event-ID',
      ],
      exposeHeaders: [
        'X-Request-Id',
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Deprecation',
        'Link',
      ],
    }),
  );
  for (const operation of operationList) {
    app.on(operation.method, honoPath(operation), async (context) => {
      const requestId = requestIdOf(context.req.raw);
      const started = performance.now();
      const result = await runOperation(services, handlers, {
        operation,
        readInput: () => readOperationInput(operation, context.req.raw, context.req.param() as Record<string, string>),
        authorization: context.req.header('authorization'),
        clientIp: clientIpOf(context),
        endpoint: context.req.path,
        requestId,
      });
      services.logger.info('request', {
        requestId,
        method: operation.method,
        path: context.req.path,
        operation: operation.id,
        status: result.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      });
      return new Response(JSON.stringify(result.envelope), {
        status: result.status,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...result.headers },
      });
    });
  }
  registerMcp(app, services, handlers);
  registerDocs(app);
  app.notFound((context) => {
    const requestId = requestIdOf(context.req.raw);
    const error = makeApiError('NOT_FOUND', `No route ${context.req.method} ${context.req.path}`);
    return context.json(errorEnvelope(error, buildMeta(context.req.path, requestId)), 404, {
      'x-request-id': requestId,
    });
  });
  app.onError((error, context) => {
    const requestId = requestIdOf(context.req.raw);
    const apiError =
      error instanceof ApiError ? error.toObject() : makeApiError('INTERNAL_ERROR', 'An internal error occurred');
    if (!(error instanceof ApiError)) services.logger.error('unhandled error', { requestId, error: error.name });
    return context.json(errorEnvelope(apiError, buildMeta(context.req.path, requestId)), apiError.status as 500, {
      'x-request-id': requestId,
    });
  });
  return app;
}
