import { MCP_PATH } from '@memory-service/contract';
import type { Hono } from 'hono';
import type { HandlerTable } from '../pipeline/handler-types.js';
import { clientIpOf } from '../pipeline/request-meta.js';
import type { Services } from '../services.js';
import { LEGACY_KEY_METHODS, serveLegacyKeyRoute } from './legacy-key-route.js';
import { createMcpEndpoint } from './mcp-endpoint.js';
import { guardRuleWrites } from './rule-write-guard.js';

/**
 * Mounts MCP on the app: the stateless Streamable HTTP endpoint at `/api/mcp` (browser origins checked against
 * MEMORY_MCP_ALLOWED_ORIGINS, then the same Bearer API key as the HTTP routes, tools mapped to the same handlers,
 * except that rule writes need a permission: `guardRuleWrites`) and `/api/mcp/key`, the deprecated alias of
 * `/management/keys`.
 */
export function registerMcp(app: Hono, services: Services, handlers: HandlerTable): void {
  const endpoint = createMcpEndpoint(services, guardRuleWrites(handlers));
  // The app's requestIds() and request log give every request its id, its X-Request-Id header and its log line.
  app.all(MCP_PATH, (context) =>
    endpoint.fetch({ request: context.req.raw, requestId: context.get('requestId'), clientIp: clientIpOf(context) }),
  );
  app.on(LEGACY_KEY_METHODS, `${MCP_PATH}/key`, (context) =>
    serveLegacyKeyRoute(services, handlers, {
      request: context.req.raw,
      path: context.req.path,
      requestId: context.get('requestId'),
      clientIp: clientIpOf(context),
    }),
  );
}
