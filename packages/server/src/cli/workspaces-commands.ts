import path from 'node:path';
import { loadConfig } from '../config.js';
import type { Services } from '../services.js';
import type { ApiKeyRow, OwnerRow } from '../store/control-store.js';
import { resolveDatabaseUrl } from '../tenancy/data-dir-urls.js';
import { CliFailure, type CliIo, EXIT_CODES, UsageError } from './cli-io.js';
import { printNewKey, shortTime, table, withServices } from './keys-commands.js';

/** The longest workspace name. */
const MAX_NAME_LENGTH = 100;

/**
 * Where a new workspace's own database lives: `file:workspaces/<id>.db` (in the data dir) when the control database is a file
 * (one machine). With the control plane on a libSQL server, other replicas could not open a file on this machine, so
 * the workspace gets no workspace database: its requests name a tenantId (provisioned by MEMORY_TENANT_PROVISIONER),
 * and requests without one answer 400 DATABASE_NOT_CONFIGURED.
 */
export function workspaceDatabaseUrl(services: Pick<Services, 'config'>, workspaceId: string): string | null {
  const { config } = services;
  if (!config.controlDbUrl.startsWith('file:')) return null;
  // Relative to the data dir (tenancy/data-dir-urls.ts): the data dir can be moved.
  return `file:${path.posix.join('workspaces', `${workspaceId}.db`)}`;
}

/** A workspace name as given, trimmed; refused when empty, too long or holding control characters. */
function checkedName(name: string): string {
  const trimmed = name.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (trimmed === '' || trimmed.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new UsageError(`a workspace name is 1 to ${MAX_NAME_LENGTH} printable characters`, 'workspaces create');
  }
  return trimmed;
}

/**
 * Creates a workspace (an owner with its own keys, tenants, workspace database and skill mirror) and its first API
 * key; the plain key is returned once and never stored.
 */
export async function createWorkspace(
  services: Services,
  name: string,
  now: Date,
  expiresAt: Date | null = null,
): Promise<{ workspace: OwnerRow; apiKey: string; key: ApiKeyRow }> {
  const checked = checkedName(name);
  if ((await services.control.findOwnerByName(checked)) !== undefined) {
    throw new CliFailure(`a workspace named '${checked}' exists already (see: memory-service workspaces list)`);
  }
  const workspace = await services.control.createOwner(checked, (id) => workspaceDatabaseUrl(services, id), now);
  const { apiKey, row } = await services.control.createKey(workspace.id, now, expiresAt);
  return { workspace, apiKey, key: row };
}

/** `memory-service workspaces create <name>`: creates a workspace and prints its id and first key once. */
export async function createWorkspaceCommand(
  io: CliIo,
  name: string,
  expiresInMs: number | undefined,
): Promise<number> {
  const now = io.now();
  const expiresAt = expiresInMs === undefined ? null : new Date(now.getTime() + expiresInMs);
  const created = await withServices(io, (services) => createWorkspace(services, name, now, expiresAt));
  const stored = created.workspace.workspace_db_url;
  // Stored relative to the data dir; shown where it is.
  const database =
    stored === null ? 'none (requests must name a tenantId)' : resolveDatabaseUrl(loadConfig(io.env).dataDir, stored);
  io.stdout.write(
    [
      `Created workspace '${created.workspace.name}'.`,
      '',
      `workspace: ${created.workspace.id}`,
      `database:  ${database}`,
      '',
      '',
    ].join('\n'),
  );
  printNewKey(io, 'Its first API key', created.apiKey, created.key);
  io.stdout.write(`More keys: memory-service keys create --workspace ${created.workspace.id}\n`);
  return EXIT_CODES.ok;
}

/** `memory-service workspaces list`: id, name, created, active keys and tenants of each workspace; never keys. */
export async function listWorkspacesCommand(io: CliIo): Promise<number> {
  const now = io.now();
  const rows = await withServices(io, (services) => services.control.listWorkspaces(now));
  const lines = rows.map((row) => [
    row.id,
    row.name,
    shortTime(row.created_at),
    String(row.active_keys),
    String(row.tenants),
  ]);
  io.stdout.write(`${table([['ID', 'NAME', 'CREATED', 'KEYS', 'TENANTS'], ...lines])}\n`);
  return EXIT_CODES.ok;
}
