import type { TenantMappingSchema } from '@memory-service/contract';
import type * as z from 'zod';
import { parseJson } from '../../store/rows.js';
import type { TenantRow } from '../../tenancy/tenant-registry.js';

type TenantMapping = z.infer<typeof TenantMappingSchema>;

/** The contract's mapping record of a row: the token stays sealed in the control database (`hasToken` only). */
export function toTenantMapping(row: TenantRow): TenantMapping {
  return {
    tenantId: row.tenant_id,
    mode: row.mode,
    status: row.status,
    source: row.source,
    dbName: row.db_name,
    dbUrl: row.db_url,
    hasToken: row.db_token_encrypted !== null,
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
