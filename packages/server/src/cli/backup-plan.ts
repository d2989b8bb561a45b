import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from '../config.js';
import {
  setTenantDatabaseUrl,
  setWorkspaceDatabaseUrl,
  tenantDatabaseUrls,
  workspaceDatabaseUrls,
} from '../store/backup.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import type { Database } from '../store/database.js';
import { resolveDatabaseUrl } from '../tenancy/data-dir-urls.js';

/** A database the backup covers: what it is, where it is, and where its copy goes inside the backup folder. */
export interface BackupItem {
  label: string;
  url: string;
  /** Its path inside the backup folder (the same as inside the data dir), or null for a remote database. */
  relative: string | null;
  /** Points the copied control database at the copy (a data-dir-relative URL; none for the control database). */
  repoint?: (control: Database, copyUrl: string) => Promise<void>;
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
  for (const { ownerId: id, url: stored } of await workspaceDatabaseUrls(control)) {
    // Data-dir-relative names are the source data dir's files.
    const url = resolveDatabaseUrl(config.dataDir, stored);
    const fallback = id === DEFAULT_OWNER_ID ? 'workspace.db' : path.join('workspaces', `${safeName(id)}.db`);
    const relative = url.startsWith('file:') ? relativeTarget(config, url, fallback) : null;
    const repoint = (copy: Database, copyUrl: string) => setWorkspaceDatabaseUrl(copy, id, copyUrl);
    items.push({ label: `workspace ${id}`, url, relative, repoint });
  }
  for (const { ownerId: owner, tenantId: tenant, url: stored } of await tenantDatabaseUrls(control)) {
    const url = resolveDatabaseUrl(config.dataDir, stored);
    const fallback = path.join('tenants', safeName(owner), path.basename(url.startsWith('file:') ? filePath(url) : ''));
    const relative = url.startsWith('file:') ? relativeTarget(config, url, fallback) : null;
    const repoint = (copy: Database, copyUrl: string) => setTenantDatabaseUrl(copy, owner, tenant, copyUrl);
    items.push({ label: `tenant ${owner}/${tenant}`, url, relative, repoint });
  }
  return items;
}
