import type { DatabaseLocation } from '../store/database.js';
import { namespaceFetch } from './host-routed-fetch.js';
import type { TenantRow } from './tenant-registry.js';

/**
 * Whether a mapping is a namespace of a libSQL server: a provisioned mapping whose URL is a server (not a
 * `file:`) was created by the `sqld` provisioner, which stores the server's URL and the namespace as `db_name`.
 */
export function isNamespaceMapping(row: Pick<TenantRow, 'mode' | 'db_url' | 'db_name'>): boolean {
  return row.mode === 'provision' && row.db_url !== null && !row.db_url.startsWith('file:') && row.db_name !== null;
}

/** How to open a mapping's database: its URL and token, plus the Host-routing fetch for a namespace. */
export function mappingLocation(
  row: Pick<TenantRow, 'mode' | 'db_url' | 'db_name'> & { db_url: string },
  authToken: string | undefined,
): DatabaseLocation {
  const location: DatabaseLocation = { url: row.db_url, authToken };
  if (isNamespaceMapping(row) && row.db_name !== null) location.fetch = namespaceFetch(row.db_name);
  return location;
}
