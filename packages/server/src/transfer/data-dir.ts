import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { ControlStore } from '../store/control-store.js';
import { Database, type DatabaseLocation } from '../store/database.js';
import { sharedDatabasePool } from '../store/database-pool.js';
import { migrate } from '../store/migrate.js';
import { controlMigrations } from '../store/migrations/control.js';
import { TenantRegistry } from '../store/tenant-registry.js';
import { chooseProvisioner } from '../tenancy/choose-provisioner.js';
import { storedDatabaseUrl } from '../tenancy/data-dir-urls.js';
import { namespaceFetch } from '../tenancy/host-routed-fetch.js';
import { relocateDatabases } from '../tenancy/relocate-databases.js';
import { TenantResolver } from '../tenancy/resolver.js';
import { SecretBox } from '../tenancy/secrets.js';
import type { ImportTarget } from './check-import.js';
import type { ExportSource } from './export-lines.js';
import type { OpenTarget } from './write-import.js';

/**
 * The control plane of a data dir as export and import need it: owners, tenant mappings and where each database is.
 * Unlike the server's services it starts no indexer and loads no model: the commands only read and write rows.
 */
export interface DataDir {
  config: ServerConfig;
  control: ControlStore;
  registry: TenantRegistry;
  resolver: TenantResolver;
  close(): Promise<void>;
}

/** The file behind a resolved `file:` URL, or null for a libSQL server. */
function fileOf(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  return path.resolve((url.split('?')[0] ?? url).slice('file:'.length));
}

/**
 * Opens the control database of the configuration (created when `create`, else it must exist), with the default
 * workspace and relative database URLs in place, as the server's start does.
 */
export async function openDataDir(
  config: ServerConfig,
  { create, now }: { create: boolean; now: Date },
): Promise<DataDir> {
  const controlFile = fileOf(config.controlDbUrl);
  if (!create && controlFile !== null && !existsSync(controlFile)) {
    throw new Error(`no control database at ${controlFile}: nothing to export (check MEMORY_DATA_DIR)`);
  }
  const database = await Database.open(
    {
      url: config.controlDbUrl,
      authToken: config.controlDbToken,
      ...(config.controlDbNamespace ? { fetch: namespaceFetch(config.controlDbNamespace) } : {}),
    },
    sharedDatabasePool(config.databaseWorkers),
  );
  try {
    await migrate(database, controlMigrations);
    const control = new ControlStore(database);
    await control.ensureDefaultOwner(storedDatabaseUrl(config.dataDir, config.defaultDbUrl), now);
    await relocateDatabases(database, config);
    const registry = new TenantRegistry(database);
    const secrets = SecretBox.load(config.secretKey, config.dataDir);
    const logger = createLogger('silent');
    const resolver = new TenantResolver({
      config,
      control,
      registry,
      provisioner: chooseProvisioner(config, secrets),
      secrets,
      logger,
    });
    return { config, control, registry, resolver, close: () => database.close() };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Whether a database exists yet (a file not created yet holds nothing to export and must not be created by it). */
function exists(location: DatabaseLocation): boolean {
  const file = fileOf(location.url);
  return file === null || existsSync(file);
}

/**
 * The databases of the data dir an export covers: each workspace's own database and each ready tenant mapping, in
 * workspace then tenant order, narrowed to one workspace and/or one tenant. Databases never created are left out.
 */
export async function exportSources(
  dataDir: Pick<DataDir, 'control' | 'registry' | 'resolver'>,
  { workspace, tenantId, now }: { workspace?: string | undefined; tenantId?: string | undefined; now: Date },
): Promise<ExportSource[]> {
  const owners = await dataDir.control.database.all<{ id: string; name: string; workspace_db_url: string | null }>(
    'SELECT id, name, workspace_db_url FROM owners ORDER BY created_at, id',
  );
  const sources: ExportSource[] = [];
  const add = async (target: ImportTarget) => {
    const location = await dataDir.resolver.location(target.workspace, target.tenantId, now);
    if (location === null || !exists(location)) return;
    sources.push({ target, open: () => Database.open(location) });
  };
  for (const owner of owners) {
    if (workspace !== undefined && owner.id !== workspace) continue;
    if (tenantId === undefined && owner.workspace_db_url !== null) {
      await add({ workspace: owner.id, workspaceName: owner.name, tenantId: null });
    }
    for (const mapping of await dataDir.registry.list(owner.id)) {
      if (mapping.status !== 'ready' || mapping.db_url === null) continue;
      if (tenantId !== undefined && mapping.tenant_id !== tenantId) continue;
      await add({ workspace: owner.id, workspaceName: owner.name, tenantId: mapping.tenant_id });
    }
  }
  return sources;
}

/**
 * Where an import writes each database of the file: the workspace is created when the data dir has none of that id
 * (with its name, or the name and id when another workspace has the name), the tenant provisioned when it is new.
 */
export function importTargets(dataDir: DataDir, now: Date): OpenTarget {
  return async (target) => {
    if ((await dataDir.control.findOwner(target.workspace)) === undefined) {
      const name = target.workspaceName ?? target.workspace;
      const taken = await dataDir.control.findOwnerByName(name);
      const controlIsFile = dataDir.config.controlDbUrl.startsWith('file:');
      await dataDir.control.database.run(
        'INSERT INTO owners (id, name, workspace_db_url, created_at) VALUES (?, ?, ?, ?)',
        [
          target.workspace,
          taken === undefined ? name : `${name} (${target.workspace})`,
          controlIsFile
            ? `file:${path.posix.join('workspaces', `${target.workspace.replace(/[^A-Za-z0-9._-]/g, '_')}.db`)}`
            : null,
          now.toISOString(),
        ],
      );
      dataDir.control.clearCaches();
    }
    const location = await dataDir.resolver.location(target.workspace, target.tenantId, now, { createTenant: true });
    if (location === null) throw new Error(`tenant ${target.tenantId} could not be created`);
    const database = await Database.open(location);
    return { database, connection: 'own', release: () => database.close() };
  };
}
