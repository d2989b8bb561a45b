import { API_PREFIX, MCP_PATH } from '@memory-service/contract';
import { hashApiKey } from '../auth/keys.js';
import { type RunningServer, startServer } from '../server.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import { type CliIo, describeFailure, EXIT_CODES } from './cli-io.js';

async function createFirstKey(server: RunningServer, io: CliIo): Promise<string | undefined> {
  const { config, control } = server.services;
  if (config.bootstrapApiKey !== undefined && config.bootstrapApiKey !== '') return undefined;
  if ((await control.countKeys()) > 0) return undefined;
  const { apiKey } = await control.createKey(DEFAULT_OWNER_ID, io.now(), null);
  return apiKey;
}

/**
 * What became of MEMORY_BOOTSTRAP_API_KEY, when it no longer authenticates: revoked (an operator's
 * `DELETE /management/keys` revokes every key, this one too, and it stays revoked across restarts) or expired.
 */
async function bootstrapKeyProblem(server: RunningServer): Promise<string | undefined> {
  const { config, control, now } = server.services;
  if (config.bootstrapApiKey === undefined || config.bootstrapApiKey === '') return undefined;
  const row = await control.findKeyByHash(hashApiKey(config.bootstrapApiKey));
  if (row?.revoked_at) return `was revoked at ${row.revoked_at}`;
  if (row?.expires_at && Date.parse(row.expires_at) <= now().getTime()) return `expired at ${row.expires_at}`;
  return undefined;
}

/**
 * `memory-service start`: starts the server from the environment, prints where it listens (and, on a first
 * start without any key, a new API key, once), then runs until SIGINT/SIGTERM and closes gracefully.
 */
export async function startCommand(io: CliIo): Promise<number> {
  // Listen for the stop signal from the start, so a signal during startup still ends in a graceful close.
  const shutdown = io.waitForShutdown();
  let server: RunningServer;
  try {
    server = await startServer({}, { environment: io.env });
  } catch (error) {
    io.stderr.write(`memory-service: could not start: ${describeFailure(error)}\n`);
    return EXIT_CODES.failure;
  }
  try {
    const firstKey = await createFirstKey(server, io);
    io.stdout.write(
      [
        `memory-service listening on ${server.url}`,
        `  HTTP API  ${server.url}${API_PREFIX}`,
        `  MCP       ${server.url}${MCP_PATH}`,
        `  Docs      ${server.url}/docs`,
        `  Console   ${server.url}/console`,
        `  Data      ${server.services.config.dataDir}`,
        '',
      ].join('\n'),
    );
    const bootstrapProblem = await bootstrapKeyProblem(server);
    if (bootstrapProblem !== undefined) {
      io.stderr.write(
        `memory-service: warning: MEMORY_BOOTSTRAP_API_KEY ${bootstrapProblem}: requests with it answer ` +
          'INVALID_API_KEY. Create a key with `memory-service keys create` and unset the variable.\n',
      );
    }
    if (firstKey !== undefined) {
      io.stdout.write(
        [
          '',
          'Created an API key (shown only this once; store it now):',
          '',
          `  ${firstKey}`,
          '',
          "Send it as 'Authorization: Bearer <key>'. Make more with: memory-service keys create",
          '',
        ].join('\n'),
      );
    }
  } catch (error) {
    io.stderr.write(`memory-service: could not start: ${describeFailure(error)}\n`);
    await server.close().catch(() => undefined);
    return EXIT_CODES.failure;
  }
  const signal = await shutdown;
  io.stdout.write(`Received ${signal}, shutting down...\n`);
  try {
    await server.close();
  } catch (error) {
    io.stderr.write(`memory-service: shutdown failed: ${describeFailure(error)}\n`);
    return EXIT_CODES.failure;
  }
  io.stdout.write('Stopped.\n');
  return EXIT_CODES.ok;
}
