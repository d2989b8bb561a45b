import type { Database } from './database.js';

/** A workspace's database as the control database names it. */
export interface WorkspaceDatabaseUrl {
  ownerId: string;
  url: string;
}

/** A tenant's database as the control database names it. */
export interface TenantDatabaseUrl {
  ownerId: string;
  tenantId: string;
  url: string;
}

/** The workspaces that have a database, by owner id. */
export async function workspaceDatabaseUrls(control: Database): Promise<WorkspaceDatabaseUrl[]> {
  const rows = await control.all<{ id: string; workspace_db_url: string | null }>(
    'SELECT id, workspace_db_url FROM owners WHERE workspace_db_url IS NOT NULL ORDER BY id',
  );
  return rows.flatMap(({ id, workspace_db_url: url }) => (url === null ? [] : [{ ownerId: id, url }]));
}

/** The tenants that have a database, by owner then tenant id. */
export async function tenantDatabaseUrls(control: Database): Promise<TenantDatabaseUrl[]> {
  const rows = await control.all<{ owner_id: string; tenant_id: string; db_url: string }>(
    'SELECT owner_id, tenant_id, db_url FROM tenants WHERE db_url IS NOT NULL ORDER BY owner_id, tenant_id',
  );
  return rows.map((row) => ({ ownerId: row.owner_id, tenantId: row.tenant_id, url: row.db_url }));
}

/** Points a workspace at another database (a backup's copied control database at the copy). */
export async function setWorkspaceDatabaseUrl(control: Database, ownerId: string, url: string): Promise<void> {
  await control.run('UPDATE owners SET workspace_db_url = ? WHERE id = ?', [url, ownerId]);
}

/** Points a tenant at another database (a backup's copied control database at the copy). */
export async function setTenantDatabaseUrl(
  control: Database,
  ownerId: string,
  tenantId: string,
  url: string,
): Promise<void> {
  await control.run('UPDATE tenants SET db_url = ? WHERE owner_id = ? AND tenant_id = ?', [url, ownerId, tenantId]);
}

/** Writes a consistent copy of the database to a file with `VACUUM INTO` (a read transaction: writers go on). */
export async function vacuumInto(database: Database, target: string): Promise<void> {
  await database.run('VACUUM INTO ?', [target]);
}
