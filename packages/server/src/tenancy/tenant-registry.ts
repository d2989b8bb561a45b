import type { InValue } from '@libsql/client';
import type { Database } from '../store/database.js';
import { CONTROL_CACHE_TTL_MS, TtlCache } from '../store/ttl-cache.js';

/** A row of the `tenants` table of the control database. */
export interface TenantRow {
  owner_id: string;
  tenant_id: string;
  mode: 'provision' | 'attach';
  status: 'ready' | 'provisioning' | 'disabled' | 'error';
  source: 'auto' | 'override';
  db_url: string | null;
  db_token_encrypted: string | null;
  db_name: string | null;
  metadata: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** Tenant mappings: which database serves (owner, tenantId). */
export class TenantRegistry {
  private readonly rows = new TtlCache<TenantRow | undefined>(CONTROL_CACHE_TTL_MS);

  constructor(private readonly database: Database) {}

  /** A mapping (cached briefly: resolved on every tenant request). */
  async find(ownerId: string, tenantId: string): Promise<TenantRow | undefined> {
    return this.rows.get(cacheKey(ownerId, tenantId), () =>
      this.database.get<TenantRow>('SELECT * FROM tenants WHERE owner_id = ? AND tenant_id = ?', [ownerId, tenantId]),
    );
  }

  /** Drops cached mappings (after writing to the table behind this registry's back). */
  clearCache(): void {
    this.rows.clear();
  }

  async list(ownerId: string): Promise<TenantRow[]> {
    return this.database.all<TenantRow>('SELECT * FROM tenants WHERE owner_id = ? ORDER BY tenant_id', [ownerId]);
  }

  /** Inserts or replaces a mapping. */
  async save(row: TenantRow): Promise<void> {
    this.rows.delete(cacheKey(row.owner_id, row.tenant_id));
    await this.database.run(
      `${INSERT_MAPPING}
       ON CONFLICT (owner_id, tenant_id) DO UPDATE SET mode = excluded.mode, status = excluded.status,
         source = excluded.source, db_url = excluded.db_url, db_token_encrypted = excluded.db_token_encrypted,
         db_name = excluded.db_name, metadata = excluded.metadata, last_error = excluded.last_error,
         updated_at = excluded.updated_at`,
      mappingArgs(row),
    );
  }

  /** Inserts a mapping unless one exists; returns whether it was inserted (first writer wins). */
  async insertIfAbsent(row: TenantRow): Promise<boolean> {
    this.rows.delete(cacheKey(row.owner_id, row.tenant_id));
    const changed = await this.database.run(
      `${INSERT_MAPPING} ON CONFLICT (owner_id, tenant_id) DO NOTHING`,
      mappingArgs(row),
    );
    return changed > 0;
  }
}

const INSERT_MAPPING = `INSERT INTO tenants (owner_id, tenant_id, mode, status, source, db_url, db_token_encrypted, db_name,
  metadata, last_error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

function mappingArgs(row: TenantRow): InValue[] {
  return [
    row.owner_id,
    row.tenant_id,
    row.mode,
    row.status,
    row.source,
    row.db_url,
    row.db_token_encrypted,
    row.db_name,
    row.metadata,
    row.last_error,
    row.created_at,
    row.updated_at,
  ];
}

function cacheKey(ownerId: string, tenantId: string): string {
  return `${ownerId}\u0000${tenantId}`;
}
