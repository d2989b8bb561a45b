import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { type BootstrapOptions, closeServices, createServices } from './bootstrap.js';
import { loadConfig, type ServerConfig } from './config.js';
import { capConnections, httpServerOptions } from './http-limits.js';
import { createMetricsApp } from './operator-routes.js';
import type { Services } from './services.js';

/** A running server. */
export interface RunningServer {
  /** `http://host:port` (the API is under `/api/sdk/v1`, MCP at `/api/mcp`). */
  url: string;
  port: number;
  /** `http://host:port` of the private metrics address (MEMORY_METRICS_PORT), when one is configured. */
  metricsUrl?: string;
  services: Services;
  /** Stops accepting connections and closes every database. */
  close(): Promise<void>;
}

/**
 * Starts the server: configuration from the environment with `overrides` on top, listening on
 * `host:port` (port 0 picks a free port).
 * @example const server = await startServer({ port: 0, dataDir: '/tmp/memory' }); await server.close();
 */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  options: BootstrapOptions & { environment?: Record<string, string | undefined> } = {},
): Promise<RunningServer> {
  const config = loadConfig(options.environment ?? process.env, overrides);
  const services = await createServices(config, options);
  const app = createApp(services);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const instance = serve(
      { fetch: app.fetch, port: config.port, hostname: config.host, serverOptions: httpServerOptions(config) },
      () => resolve(instance),
    );
    // Still the tick `listen` was called in: no connection has been accepted yet.
    capConnections(instance, config, services.logger);
    instance.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  // The private metrics address: `/metrics` without a credential and `/ready`, nothing else.
  let metricsServer: NodeServer | undefined;
  try {
    if (config.metricsPort !== undefined)
      metricsServer = await listen(createMetricsApp(services).fetch, config.metricsHost, config.metricsPort);
  } catch (error) {
    // A taken metrics port fails the start as a taken API port does, leaving nothing open.
    await stop(server);
    await closeServices(services);
    throw error;
  }
  let closed = false;
  return {
    url: urlOf(config.host, address.port),
    port: address.port,
    ...(metricsServer === undefined
      ? {}
      : { metricsUrl: urlOf(config.metricsHost, (metricsServer.address() as AddressInfo).port) }),
    services,
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([stop(server), ...(metricsServer === undefined ? [] : [stop(metricsServer)])]);
      await closeServices(services);
    },
  };
}

type NodeServer = ReturnType<typeof serve>;

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function listen(fetch: (request: Request) => Response | Promise<Response>, hostname: string, port: number) {
  return new Promise<NodeServer>((resolve, reject) => {
    const instance = serve({ fetch, port, hostname }, () => resolve(instance));
    instance.once('error', reject);
  });
}

function stop(server: NodeServer): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}
