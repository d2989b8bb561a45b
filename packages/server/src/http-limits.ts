import type { ServerOptions } from 'node:http';
import type { Server } from 'node:net';
import type { ServerConfig } from './config.js';
import type { Logger } from './logger.js';

/**
 * How often Node looks for connections past their header or request time (its default, 30 s, let a silent socket
 * live 90 s with the default 60 s header time, holding a descriptor). A scan of the open connections, cheap at 1 s.
 */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/**
 * Time to receive a whole request, headers and body (Node's default is 300 s): 1 MiB, the body cap, in 60 s is a
 * 17 KiB/s client. The handler's own time does not count (MEMORY_REQUEST_DEADLINE_MS bounds that).
 */
const REQUEST_TIMEOUT_MS = 60_000;

/** At most one warning a minute while the connection cap turns connections away. */
const DROP_WARNING_INTERVAL_MS = 60_000;

/** The configuration the HTTP server's limits come from. */
export type HttpLimitsConfig = Pick<ServerConfig, 'maxConnections' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'>;

/**
 * Node's HTTP server options for the configured limits. On Node 24 `headersTimeout` covers a connection that sends
 * nothing at all as well as one that trickles its headers: it is answered 408 and closed, checked every second.
 */
export function httpServerOptions(config: HttpLimitsConfig): ServerOptions {
  return {
    headersTimeout: config.headersTimeoutMs,
    // Node refuses a request time shorter than the header time.
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, config.headersTimeoutMs),
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(CONNECTIONS_CHECKING_INTERVAL_MS, config.headersTimeoutMs),
  };
}

/**
 * Caps the connections `server` holds at once (MEMORY_MAX_CONNECTIONS; 0 leaves it uncapped): past the cap Node closes
 * a new connection as soon as it is accepted, so idle sockets cannot take every file descriptor the databases need.
 * Call it before the server accepts anything (right after `listen`, in the same tick).
 */
export function capConnections(server: Server, config: HttpLimitsConfig, logger: Logger): void {
  if (config.maxConnections <= 0) return;
  server.maxConnections = config.maxConnections;
  let warnedAt = Number.NEGATIVE_INFINITY;
  server.on('drop', () => {
    const now = Date.now();
    if (now - warnedAt < DROP_WARNING_INTERVAL_MS) return;
    warnedAt = now;
    logger.warn('connection cap reached: new connections are closed', { maxConnections: config.maxConnections });
  });
}
