import { API_PREFIX, IDEMPOTENCY, MCP_PATH, makeApiError, operationList } from '@memory-service/contract';
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { ApiError, errorResponse } from './api-error.js';
import { registerConsole } from './console.js';
import { registerDocs } from './docs.js';
import { defaultHandlers } from './handlers/index.js';
import type { Logger } from './logger.js';
import { registerMcp } from './mcp/register-mcp.js';
import { observeRequest } from './observability/request-observation.js';
import type { Observability } from './operator/observability.js';
import { registerOperatorRoutes } from './operator-routes.js';
import { limitRequestBody } from './pipeline/body-limit.js';
import type { HandlerTable } from './pipeline/handler-types.js';
import { logRequest } from './pipeline/log-request.js';
import { readOperationInput } from './pipeline/read-input.js';
import { clientIpOf, requestIds } from './pipeline/request-meta.js';
import { createRouteTable, type RouteTable, serverRoutes, toHonoPath } from './pipeline/route-table.js';
import { runOperation } from './pipeline/run-operation.js';
import { runStreamedOperation } from './pipeline/run-streamed-operation.js';
import type { Services } from './services.js';

/**
 * Logs every request once, on the way out, under the id `requestIds()` gave it; the request runs under its
 * observation, so its metrics and trace (and those of the MCP tool calls in it) are recorded with the log line.
 */
function requestLog(logger: Logger, routes: RouteTable, observability: Observability): MiddlewareHandler {
  return async (context, next) => {
    const { method, path } = context.req;
    const operation = routes.operationFor(method, path) ?? null;
    const observation = observability.startRequest(method, operation, path);
    await observeRequest(observation, next);
    const entry = { requestId: context.get('requestId'), method, path, operation, status: context.res.status };
    logRequest(logger, { ...entry, started: observation.started }, observation);
  };
}

/**
 * Builds the Hono app: every operation of the contract's table mounted through the one pipeline, MCP at
 * `/api/mcp`, the OpenAPI document and `/docs`. Hono's middleware runs the HTTP shell: `requestId()` (one id from
 * the edge to the envelope, the `X-Request-Id` header and the log line), `bodyLimit()` and, for the client address,
 * `getConnInfo()`. A known path asked with another method answers 405 with `Allow`; an unknown one 404 `NOT_FOUND`.
 * Tests call `app.request()` with no port.
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
        IDEMPOTENCY.header,
      ],
      exposeHeaders: [
        'X-Request-Id',
        'Retry-After',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Deprecation',
        'Link',
        IDEMPOTENCY.replayedHeader,
      ],
    }),
  );
  const routes = createRouteTable(serverRoutes());
  app.use('*', requestIds());
  app.use('*', requestLog(services.logger, routes, services.observability));
  app.use(`${API_PREFIX}/*`, limitRequestBody());
  app.use(`${MCP_PATH}/key`, limitRequestBody());
  for (const operation of operationList) {
    if (operation.stream !== undefined) {
      app.on(operation.method, toHonoPath(`${API_PREFIX}${operation.path}`), (context) =>
        runStreamedOperation(services, handlers, {
          operation,
          request: context.req.raw,
          pathParams: context.req.param() as Record<string, string>,
          clientIp: clientIpOf(context),
          endpoint: context.req.path,
          requestId: context.get('requestId'),
        }),
      );
      continue;
    }
    app.on(operation.method, toHonoPath(`${API_PREFIX}${operation.path}`), async (context) => {
      // A parameter route does not take a path another route names word for word (route-table.ts).
      if (routes.operationFor(context.req.method, context.req.path) !== operation.id) return context.notFound();
      const result = await runOperation(services, handlers, {
        operation,
        readInput: () => readOperationInput(operation, context.req.raw, context.req.param() as Record<string, string>),
        authorization: context.req.header('authorization'),
        idempotencyKey: context.req.header(IDEMPOTENCY.header),
        clientIp: clientIpOf(context),
        endpoint: context.req.path,
        requestId: context.get('requestId'),
      });
      return new Response(JSON.stringify(result.envelope), {
        status: result.status,
        headers: { 'content-type': 'application/json; charset=utf-8', ...result.headers },
      });
    });
  }
  registerMcp(app, services, handlers);
  registerDocs(app);
  registerConsole(app);
  registerOperatorRoutes(app, services);
  app.notFound((context) => {
    const { method, path } = context.req;
    const allowed = routes.methodsFor(path);
    if (allowed.length === 0) return errorResponse(context, makeApiError('NOT_FOUND', `No route ${method} ${path}`));
    const message = `${method} is not allowed on ${path}; use ${allowed.join(' or ')}`;
    const error = makeApiError('METHOD_NOT_ALLOWED', message, { allowedMethods: allowed });
    return errorResponse(context, error, { Allow: allowed.join(', ') });
  });
  app.onError((error, context) => {
    if (error instanceof ApiError) return errorResponse(context, error.toObject());
    services.logger.error('unhandled error', { requestId: context.get('requestId'), error: error.name });
    return errorResponse(context, makeApiError('INTERNAL_ERROR', 'An internal error occurred'));
  });
  return app;
}
