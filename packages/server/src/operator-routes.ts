import { type Context, Hono } from 'hono';
import { ApiError, errorResponse } from './api-error.js';
import { API_KEY_PATTERN, secretsEqual } from './auth/keys.js';
import { bearerToken } from './pipeline/authenticate.js';
import { clientIpOf } from './pipeline/request-meta.js';
import type { Services } from './services.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * Checks the operator credential of a `/metrics` request on the API's address, with the codes and statuses of the
 * management routes: no header 401 `MISSING_API_KEY`; an API key, or any token while no admin token is configured,
 * 403 `OPERATOR_CREDENTIAL_REQUIRED`; another token 401 `INVALID_API_KEY_FORMAT`. The per-address rate limit
 * counts first, as for every route.
 */
function requireOperator(services: Services, context: Context): void {
  const clientIp = clientIpOf(context);
  if (services.ipRateLimiter.enabled && clientIp !== null) {
    const decision = services.ipRateLimiter.take(`ip:${clientIp}`, services.now().getTime());
    if (!decision.allowed)
      throw new ApiError(
        'RATE_LIMITED',
        `Rate limit exceeded for this client address; retry after ${decision.retryAfterSeconds} s`,
        {
          retryAfterSeconds: decision.retryAfterSeconds,
          limit: decision.limit,
        },
      );
  }
  const token = bearerToken(context.req.header('authorization'));
  if (token === null)
    throw new ApiError(
      'MISSING_API_KEY',
      'Metrics take the admin token: send "Authorization: Bearer <MEMORY_ADMIN_TOKEN>"',
    );
  const { adminToken } = services.config;
  const configured = adminToken !== undefined && adminToken !== '';
  if (configured && secretsEqual(token, adminToken)) return;
  if (!configured || API_KEY_PATTERN.test(token))
    throw new ApiError(
      'OPERATOR_CREDENTIAL_REQUIRED',
      configured
        ? 'Metrics take the admin token (MEMORY_ADMIN_TOKEN), not an API key'
        : 'Metrics take the admin token: set MEMORY_ADMIN_TOKEN, or serve them on a private address (MEMORY_METRICS_PORT)',
    );
  throw new ApiError('INVALID_API_KEY_FORMAT', 'The token is not the admin token');
}

async function metricsResponse(services: Services): Promise<Response> {
  const { contentType, body } = await services.observability.metrics.render();
  return new Response(body, { status: 200, headers: { 'content-type': contentType, ...NO_STORE } });
}

async function readinessResponse(services: Services): Promise<Response> {
  const report = await services.observability.readiness.check();
  return Response.json(report, { status: report.ready ? 200 : 503, headers: NO_STORE });
}

/**
 * `GET /metrics` (Prometheus text, the operator credential) and `GET /ready` (readiness, no credential: its body holds
 * check names and statuses only) on the API's address. Neither is part of the `/api/sdk/v1` contract, like `/docs`.
 */
export function registerOperatorRoutes(app: Hono, services: Services): void {
  app.get('/metrics', async (context) => {
    try {
      requireOperator(services, context);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const retryAfter = error.details?.retryAfterSeconds;
      return errorResponse(
        context,
        error.toObject(),
        typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {},
      );
    }
    return metricsResponse(services);
  });
  app.get('/ready', () => readinessResponse(services));
}

/**
 * The app of the private metrics address (MEMORY_METRICS_PORT): `/metrics` without a credential, and `/ready`. It
 * serves nothing else, so exposing it gives no access to memories; keep it on a private interface all the same.
 */
export function createMetricsApp(services: Services): Hono {
  const app = new Hono();
  app.get('/metrics', () => metricsResponse(services));
  app.get('/ready', () => readinessResponse(services));
  app.notFound(() => new Response('Not found: this address serves /metrics and /ready\n', { status: 404 }));
  return app;
}
