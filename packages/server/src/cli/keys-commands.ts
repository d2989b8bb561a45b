import { closeServices, createServices } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import type { Services } from '../services.js';
import { type ApiKeyRow, DEFAULT_OWNER_ID, type KeyOptions } from '../store/control-store.js';
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

/** Fails unless the workspace exists (keys are created, listed and revoked per workspace). */
export async function requireWorkspace(services: Services, workspaceId: string): Promise<void> {
  if ((await services.control.findOwner(workspaceId)) === undefined) {
    throw new CliFailure(`no workspace with id ${workspaceId} (see: memory-service workspaces list)`);
  }
}

/** Prints a newly created key once, with its id, expiry and, when it has it, its permission to write rules. */
export function printNewKey(io: CliIo, heading: string, apiKey: string, row: ApiKeyRow): void {
  io.stdout.write(
    [
      `${heading} (shown only this once; store it now):`,
      '',
      `  ${apiKey}`,
      '',
      `id:       ${row.id}`,
      `expires:  ${shortTime(row.expires_at)}`,
      ...(mayWriteRules(row) ? ['rules:    may write rules over MCP'] : []),
      '',
    ].join('\n'),
  );
}

function mayWriteRules(row: ApiKeyRow): boolean {
  return Number(row.allow_rule_writes) === 1;
}

/** An ISO time without its milliseconds, or `never`. */
export function shortTime(iso: string | null): string {
  return iso === null ? 'never' : iso.replace(/\.\d{3}Z$/, 'Z');
}

function statusOf(row: ApiKeyRow, now: Date): 'active' | 'expired' | 'revoked' {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

/** Rows as aligned columns. */
export function table(rows: readonly (readonly string[])[]): string {
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

/**
 * `memory-service keys create [--workspace <id>] [--allow-rule-writes]`: creates a key of a workspace (with
 * `options`, allowed to write rules over MCP) and prints it once.
 */
export async function createKeyCommand(
  io: CliIo,
  expiresInMs: number | undefined,
  workspaceId: string = DEFAULT_OWNER_ID,
  options: KeyOptions = {},
): Promise<number> {
  const now = io.now();
  const expiresAt = expiresInMs === undefined ? null : new Date(now.getTime() + expiresInMs);
  const { apiKey, row } = await withServices(io, async (services) => {
    await requireWorkspace(services, workspaceId);
    return services.control.createKey(workspaceId, now, expiresAt, options);
  });
  const which = workspaceId === DEFAULT_OWNER_ID ? '' : ` of workspace ${workspaceId}`;
  printNewKey(io, `Created an API key${which}`, apiKey, row);
  return EXIT_CODES.ok;
}

/** `memory-service keys list [--workspace <id>]`: a workspace's keys as a table, never the keys themselves. */
export async function listKeysCommand(io: CliIo, workspaceId: string = DEFAULT_OWNER_ID): Promise<number> {
  const now = io.now();
  const rows = await withServices(io, async (services) => {
    await requireWorkspace(services, workspaceId);
    return services.control.listKeys(workspaceId);
  });
  if (rows.length === 0) {
    const option = workspaceId === DEFAULT_OWNER_ID ? '' : ` --workspace ${workspaceId}`;
    io.stdout.write(`No API keys yet. Create one with: memory-service keys create${option}\n`);
    return EXIT_CODES.ok;
  }
  const lines = rows.map((row) => [
    row.id,
    row.preview,
    statusOf(row, now),
    shortTime(row.created_at),
    shortTime(row.expires_at),
    mayWriteRules(row) ? 'allowed' : '-',
  ]);
  io.stdout.write(`${table([['ID', 'PREVIEW', 'STATUS', 'CREATED', 'EXPIRES', 'MCP RULES'], ...lines])}\n`);
  return EXIT_CODES.ok;
}

/** `memory-service keys revoke <id> [--workspace <id>]`: revokes one key of a workspace. */
export async function revokeKeyCommand(
  io: CliIo,
  keyId: string,
  workspaceId: string = DEFAULT_OWNER_ID,
): Promise<number> {
  const now = io.now();
  const outcome = await withServices(io, async (services) => {
    await requireWorkspace(services, workspaceId);
    const revoked = await services.control.revokeKeys(workspaceId, now, keyId);
    return { revoked, row: revoked > 0 ? undefined : await services.control.findKey(workspaceId, keyId) };
  });
  if (outcome.revoked > 0) {
    io.stdout.write(`Revoked API key ${keyId}.\n`);
    return EXIT_CODES.ok;
  }
  if (outcome.row !== undefined) {
    io.stdout.write(`API key ${keyId} was already revoked (${shortTime(outcome.row.revoked_at)}).\n`);
    return EXIT_CODES.ok;
  }
  const option = workspaceId === DEFAULT_OWNER_ID ? '' : ` --workspace ${workspaceId}`;
  throw new CliFailure(`no API key with id ${keyId} in this workspace (see: memory-service keys list${option})`);
}
