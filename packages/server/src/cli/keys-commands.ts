import { closeServices, createServices } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import type { Services } from '../services.js';
import { type ApiKeyRow, DEFAULT_OWNER_ID } from '../store/control-store.js';
import { CliFailure, type CliIo, EXIT_CODES } from './cli-io.js';

/** Opens the same services the server uses (control database, migrations, bootstrap key), runs `work`, closes. */
export async function withServices<T>(io: CliIo, work: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  const services = await createServices(config, { logger: createLogger('silent'), now: io.now });
  try {
    return await work(services);
  } finally {
    await closeServices(services);
  }
}

function shortTime(iso: string | null): string {
  return iso === null ? 'never' : iso.replace(/\.\d{3}Z$/, 'Z');
}

function statusOf(row: ApiKeyRow, now: Date): 'active' | 'expired' | 'revoked' {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `memory-service keys create`: creates a key for the default owner and prints it once. */
export async function createKeyCommand(io: CliIo, expiresInMs: number | undefined): Promise<number> {
  const now = io.now();
  const expiresAt = expiresInMs === undefined ? null : new Date(now.getTime() + expiresInMs);
  const { apiKey, row } = await withServices(io, (services) =>
    services.control.createKey(DEFAULT_OWNER_ID, now, expiresAt),
  );
  io.stdout.write(
    [
      'Created an API key (shown only this once; store it now):',
      '',
      `  ${apiKey}`,
      '',
      `id:       ${row.id}`,
      `expires:  ${shortTime(row.expires_at)}`,
      '',
    ].join('\n'),
  );
  return EXIT_CODES.ok;
}

/** `memory-service keys list`: the default owner's keys as a table, never the keys themselves. */
export async function listKeysCommand(io: CliIo): Promise<number> {
  const now = io.now();
  const rows = await withServices(io, (services) => services.control.listKeys(DEFAULT_OWNER_ID));
  if (rows.length === 0) {
    io.stdout.write('No API keys yet. Create one with: memory-service keys create\n');
    return EXIT_CODES.ok;
  }
  const lines = rows.map((row) => [
    row.id,
    row.preview,
    statusOf(row, now),
    shortTime(row.created_at),
    shortTime(row.expires_at),
  ]);
  io.stdout.write(`${table([['ID', 'PREVIEW', 'STATUS', 'CREATED', 'EXPIRES'], ...lines])}\n`);
  return EXIT_CODES.ok;
}

/** `memory-service keys revoke <id>`: revokes one key of the default owner. */
export async function revokeKeyCommand(io: CliIo, keyId: string): Promise<number> {
  const now = io.now();
  const outcome = await withServices(io, async (services) => {
    const revoked = await services.control.revokeKeys(DEFAULT_OWNER_ID, now, keyId);
    return { revoked, row: revoked > 0 ? undefined : await services.control.findKey(DEFAULT_OWNER_ID, keyId) };
  });
  if (outcome.revoked > 0) {
    io.stdout.write(`Revoked API key ${keyId}.\n`);
    return EXIT_CODES.ok;
  }
  if (outcome.row !== undefined) {
    io.stdout.write(`API key ${keyId} was already revoked (${shortTime(outcome.row.revoked_at)}).\n`);
    return EXIT_CODES.ok;
  }
  throw new CliFailure(`no API key with id ${keyId} (see: memory-service keys list)`);
}
