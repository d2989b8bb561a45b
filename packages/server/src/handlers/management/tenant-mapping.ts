import path from 'node:path';
import type { TenantMappingSchema } from '@memory-service/contract';
import type * as z from 'zod';
import { parseJson } from '../../store/rows.js';
import type { TenantRow } from '../../store/tenant-registry.js';
import { isDataDirRelative } from '../../tenancy/data-dir-urls.js';

type TenantMapping = z.infer<typeof TenantMappingSchema>;

/**
 * A mapping's URL as a client may see it: a file database inside the data dir is named relative to it
 * (`file:tenants/<owner>/<name>.db`), so no answer discloses the server's own paths.
 */
function publicDbUrl(dbUrl: string | null, dataDir: string): string | null {
  if (dbUrl === null || !dbUrl.startsWith('file:') || isDataDirRelative(dbUrl)) return dbUrl;
  const file = path.resolve(dbUrl.slice('file:'.length));
  const relative = path.relative(dataDir, file);
  return `file:${relative.startsWith('..') || path.isAbsolute(relative) ? path.basename(file) : relative}`;
}

/** The contract's mapping record of a row: the token stays sealed in the control database (`hasToken` only). */
export function toTenantMapping(row: TenantRow, dataDir: string): TenantMapping {
  const dbUrl = publicDbUrl(row.db_url, dataDir);
  return {
    tenantId: row.tenant_id,
    mode: row.mode,
    status: row.status,
    source: row.source,
    dbName: row.db_name,
    dbUrl,
    tursoDbUrl: dbUrl ?? '',
    tursoDbName: row.db_name,
    hasToken: row.db_token_encrypted !== null,
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
