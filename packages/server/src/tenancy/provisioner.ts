import { createHash } from 'node:crypto';
import path from 'node:path';

/** Where a provisioned tenant database lives. */
export interface ProvisionedDatabase {
  url: string;
  dbName: string;
}

/** Creates the database of a new tenant. */
export interface TenantProvisioner {
  readonly kind: 'file' | 'sqld';
  provision(ownerId: string, tenantId: string): Promise<ProvisionedDatabase>;
}

/** A file name for a tenant: readable, and unique even where two ids differ only in unsafe characters. */
export function tenantDatabaseName(ownerId: string, tenantId: string): string {
  const readable = tenantId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  const digest = createHash('sha256').update(`${ownerId}\u0000${tenantId}`).digest('hex').slice(0, 12);
  return `${readable}-${digest}`;
}

/**
 * One libSQL file per tenant under `<dataDir>/tenants/<owner>/`; the file is created on first open. Its URL is relative
 * to the data dir (`file:tenants/<owner>/<name>.db`, see `data-dir-urls.ts`), so the data dir can be moved.
 */
export class FileProvisioner implements TenantProvisioner {
  readonly kind = 'file' as const;
  async provision(ownerId: string, tenantId: string): Promise<ProvisionedDatabase> {
    const dbName = tenantDatabaseName(ownerId, tenantId);
    const ownerDir = ownerId.replace(/[^A-Za-z0-9._-]/g, '_');
    return { url: `file:${path.posix.join('tenants', ownerDir, `${dbName}.db`)}`, dbName };
  }
}
