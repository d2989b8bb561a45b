import { randomUUID } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request id a caller's `X-Request-Id` gives: the header when it is a UUID (lower-cased), else a new UUID. */
export function requestIdFrom(header: string | null | undefined): string {
  return header !== null && header !== undefined && UUID_PATTERN.test(header) ? header.toLowerCase() : randomUUID();
}

/**
 * Hono's `requestId()` under this server's policy: a caller's `X-Request-Id` is honoured only when it is a UUID
 * (anything else gets a fresh one, so a log line cannot be forged or bloated through it), and the id is put on
 * every answer's `X-Request-Id` after the route ran, errors, 404 and 405 included. Read it with
 * `context.get('requestId')`.
 */
export function requestIds(): MiddlewareHandler {
  // `headerName: ''`: hono would accept any `[\w=-]{1,255}` id as given; this policy reads the header itself.
  const assign = requestId({
    headerName: '',
    generator: (context) => requestIdFrom(context.req.header('x-request-id')),
  });
  return (context, next) =>
    assign(context, async () => {
      await next();
      context.header('X-Request-Id', context.get('requestId'));
    });
}

/** The client address, from the Node adapter's socket (no proxy headers are trusted); null without a socket. */
export function clientIpOf(context: Context): string | null {
  // Only the Node adapter binds a socket; `app.request()` (tests, embedding) and other runtimes pass no env or
  // another one (Bun passes its server object), and then there is no socket to ask.
  const env = context.env as { incoming?: { socket?: unknown } } | undefined | null;
  if (env?.incoming?.socket === undefined) return null;
  return getConnInfo(context).remote.address ?? null;
}
