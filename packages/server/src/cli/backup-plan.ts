import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from '../config.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import type { Database } from '../store/database.js';

/** A database the backup covers: what it is, where it is, and where its copy goes inside the backup folder. */
export interface BackupItem {
  label: string;
  url: string;
  /** Its path inside the backup folder (the same as inside the data dir), or null for a remote database. */
  relative: string | null;
  /** The statement that points the copied control database at the copy (none for the control database itself). */
  rewrite?: { sql: string; args: string[] };
}

/** The file behind a `file:` URL, without SQLite's `?` parameters. */
export function filePath(url: string): string {
  const withoutQuery = url.split('?')[0] ?? url;
  return withoutQuery.startsWith('file://')
    ? fileURLToPath(withoutQuery)
    : path.resolve(withoutQuery.slice('file:'.length));
}

/** Where a database file goes in the backup: its place in the data dir, or `fallback` when it lives elsewhere. */
export function relativeTarget(config: ServerConfig, url: string, fallback: string): string {
  const relative = path.relative(config.dataDir, filePath(url));
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? fallback : relative;
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** The workspace and tenant databases the (copied or remote) control database names. */
export async function listDatabases(config: ServerConfig, control: Database): Promise<BackupItem[]> {
  const items: BackupItem[] = [];
  const owners = await control.all<{ id: string; workspace_db_url: string | null }>(
    'SELECT id, workspace_db_url FROM owners WHERE workspace_db_url IS NOT NULL ORDER BY id',
  );
  for (const { id, workspace_db_url: url } of owners) {
    if (url === null) continue;
    const fallback = id === DEFAULT_OWNER_ID ? 'workspace.db' : path.join('workspaces', `${safeName(id)}.db`);
    const relative = url.startsWith('file:') ? relativeTarget(config, url, fallback) : null;
    const rewrite = { sql: 'UPDATE owners SET workspace_db_url = ? WHERE id = ?', args: [id] };
    items.push({ label: `workspace ${id}`, url, relative, rewrite });
  }
  const tenants = await control.all<{ owner_id: string; tenant_id: string; db_url: string }>(
    'SELECT owner_id, tenant_id, db_url FROM tenants WHERE db_url IS NOT NULL ORDER BY owner_id, tenant_id',
  );
  for (const { owner_id: owner, tenant_id: tenant, db_url: url } of tenants) {
    const fallback = path.join('tenants', safeName(owner), path.basename(url.startsWith('file:') ? filePath(url) : ''));
    const relative = url.startsWith('file:') ? relativeTarget(config, url, fallback) : null;
    const rewrite = {
      sql: 'UPDATE tenants SET db_url = ? WHERE owner_id = ? AND tenant_id = ?',
      args: [owner, tenant],
    };
    items.push({ label: `tenant ${owner}/${tenant}`, url, relative, rewrite });
  }
  return items;
}
