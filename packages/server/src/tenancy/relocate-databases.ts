import path from 'node:path';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import type { Database } from '../store/database.js';
import { relocatedDatabaseUrl } from './data-dir-urls.js';

/** What relocating reads of the configuration. */
export interface RelocationConfig {
  dataDir: string;
  /** MEMORY_DEFAULT_DB_URL as configured (the default workspace's database when it is set on purpose). */
  defaultDbUrl: string;
}

/** How many URLs a relocation rewrote. */
export interface RelocationReport {
  workspaces: number;
  tenants: number;
}

/** The place of a workspace database in the layout: `workspace.db` (the default one) or `workspaces/<id>.db`. */
function workspaceUrl(config: RelocationConfig, ownerId: string, url: string): string | null {
  if (ownerId === DEFAULT_OWNER_ID) {
    // A default database configured on purpose outside the data dir stays there.
    if (url === config.defaultDbUrl) return relocatedDatabaseUrl(config.dataDir, url, null, 0);
    if (path.basename(url) === 'workspace.db') return relocatedDatabaseUrl(config.dataDir, url, null, 1);
  }
  return relocatedDatabaseUrl(config.dataDir, url, 'workspaces', 2);
}

/**
 * Rewrites the control database's absolute `file:` URLs as data-dir-relative ones, at every start (a no-op once they
 * are): those inside the data dir, and those of a data dir that was moved or copied (a file in the server's layout
 * under another folder: the copy in this data dir is the one meant). Afterwards no URL names a file of another
 * folder, so a server on a moved or copied data dir neither reads nor creates files where the original was.
 */
export async function relocateDatabases(control: Database, config: RelocationConfig): Promise<RelocationReport> {
  const report: RelocationReport = { workspaces: 0, tenants: 0 };
  const owners = await control.all<{ id: string; workspace_db_url: string }>(
    "SELECT id, workspace_db_url FROM owners WHERE workspace_db_url LIKE 'file:%'",
  );
  for (const owner of owners) {
    const relocated = workspaceUrl(config, owner.id, owner.workspace_db_url);
    if (relocated === null || relocated === owner.workspace_db_url) continue;
    await control.run('UPDATE owners SET workspace_db_url = ? WHERE id = ? AND workspace_db_url = ?', [
      relocated,
      owner.id,
      owner.workspace_db_url,
    ]);
    report.workspaces += 1;
  }
  const tenants = await control.all<{ owner_id: string; tenant_id: string; db_url: string }>(
    "SELECT owner_id, tenant_id, db_url FROM tenants WHERE db_url LIKE 'file:%'",
  );
  for (const tenant of tenants) {
    const relocated = relocatedDatabaseUrl(config.dataDir, tenant.db_url, 'tenants', 3);
    if (relocated === null || relocated === tenant.db_url) continue;
    await control.run('UPDATE tenants SET db_url = ? WHERE owner_id = ? AND tenant_id = ? AND db_url = ?', [
      relocated,
      tenant.owner_id,
      tenant.tenant_id,
      tenant.db_url,
    ]);
    report.tenants += 1;
  }
  return report;
}
