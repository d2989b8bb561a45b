import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request id: the caller's X-Request-Id when it is a UUID, else a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given !== null && UUID_PATTERN.test(given) ? given.toLowerCase() : randomUUID();
}

/** The client address, as the Node adapter reports it (no proxy headers are trusted). */
export function clientIpOf(context: Context): string | null {
  const incoming = (context.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? null;
}
