import type { InValue } from '@libsql/client';
import { controlCache } from './control-cache.js';
import type { Database } from './database.js';
import { tenantKey } from './tenant-key.js';

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
  private readonly rows = controlCache<TenantRow | undefined>();

  constructor(private readonly database: Database) {}

  /** A mapping (cached briefly: resolved on every tenant request). */
  async find(ownerId: string, tenantId: string): Promise<TenantRow | undefined> {
    return this.rows.read(tenantKey(ownerId, tenantId), () =>
      this.database.get<TenantRow>('SELECT * FROM tenants WHERE owner_id = ? AND tenant_id = ?', [ownerId, tenantId]),
    );
  }

  /** Drops cached mappings (after writing to the table behind this registry's back). */
  clearCache(): void {
    this.rows.drop();
  }

  /** Every ready mapping of every owner, most recently changed first. */
  async readyMappings(): Promise<Array<{ ownerId: string; tenantId: string }>> {
    const rows = await this.database.all<{ owner_id: string; tenant_id: string }>(
      "SELECT owner_id, tenant_id FROM tenants WHERE status = 'ready' ORDER BY updated_at DESC",
    );
    return rows.map((row) => ({ ownerId: row.owner_id, tenantId: row.tenant_id }));
  }

  async list(ownerId: string): Promise<TenantRow[]> {
    return this.database.all<TenantRow>('SELECT * FROM tenants WHERE owner_id = ? ORDER BY tenant_id', [ownerId]);
  }

  /** Inserts or replaces a mapping. */
  async save(row: TenantRow): Promise<void> {
    await this.rows.writing(tenantKey(row.owner_id, row.tenant_id), () =>
      this.database.run(
        `${INSERT_MAPPING}
         ON CONFLICT (owner_id, tenant_id) DO UPDATE SET mode = excluded.mode, status = excluded.status,
           source = excluded.source, db_url = excluded.db_url, db_token_encrypted = excluded.db_token_encrypted,
           db_name = excluded.db_name, metadata = excluded.metadata, last_error = excluded.last_error,
           updated_at = excluded.updated_at`,
        mappingArgs(row),
      ),
    );
  }

  /** How many mappings an owner has (its tenant count, for the quota). */
  async count(ownerId: string): Promise<number> {
    const row = await this.database.get<{ count: number }>('SELECT count(*) AS count FROM tenants WHERE owner_id = ?', [
      ownerId,
    ]);
    return Number(row?.count ?? 0);
  }

  /**
   * Inserts a mapping unless one exists, and (with `quota` above 0) only while the owner has fewer than `quota`
   * mappings, checked in the same statement; returns whether it was inserted (first writer wins).
   */
  async insertIfAbsent(row: TenantRow, quota = 0): Promise<boolean> {
    const changed = await this.rows.writing(tenantKey(row.owner_id, row.tenant_id), () =>
      this.database.run(
        `INSERT INTO tenants (${MAPPING_COLUMNS}) SELECT ${MAPPING_COLUMNS.replace(/\w+/g, '?')}
         WHERE ? = 0 OR (SELECT count(*) FROM tenants WHERE owner_id = ?) < ?
         ON CONFLICT (owner_id, tenant_id) DO NOTHING`,
        [...mappingArgs(row), quota, row.owner_id, quota],
      ),
    );
    return changed > 0;
  }
}

const MAPPING_COLUMNS = `owner_id, tenant_id, mode, status, source, db_url, db_token_encrypted, db_name, metadata,
  last_error, created_at, updated_at`;
const INSERT_MAPPING = `INSERT INTO tenants (${MAPPING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

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
