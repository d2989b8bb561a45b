import { randomBytes, randomUUID } from 'node:crypto';
import { generateApiKey, hashApiKey, previewApiKey } from '../auth/keys.js';
import { controlCache } from './control-cache.js';
import type { Database } from './database.js';
import { EmbeddingConfigStore } from './embedding-config.js';

/** The owner every key belongs to unless said otherwise; its workspace is the default database. */
export const DEFAULT_OWNER_ID = 'default';

export interface ApiKeyRow {
  id: string;
  owner_id: string;
  key_hash: string;
  preview: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  /** 1 when the key's MCP clients may write rules (`KeyOptions.allowRuleWrites`), else 0. */
  allow_rule_writes: number;
}

/** What a key may do beyond the defaults, fixed when it is minted. */
export interface KeyOptions {
  /** Let the key's MCP clients write rules (add, edit or forget type or layer `rule`), which MCP refuses otherwise. */
  allowRuleWrites?: boolean;
}

export interface OwnerRow {
  id: string;
  name: string;
  workspace_db_url: string | null;
  created_at: string;
}

/** A workspace as `memory-service workspaces list` shows it: never its keys, only how many are active. */
export interface WorkspaceSummary extends OwnerRow {
  active_keys: number;
  tenants: number;
}

/** Owners and API keys in the control-plane database. */
export class ControlStore {
  private readonly keysByHash = controlCache<ApiKeyRow | undefined>();
  private readonly owners = controlCache<OwnerRow | undefined>();
  /** When each key's last use was last written, so a busy key costs one write a minute, not one per request. */
  private readonly lastTouched = new Map<string, number>();

  /** Owners' embedding allowlists and project overrides. */
  readonly embeddingConfig: EmbeddingConfigStore;

  constructor(readonly database: Database) {
    this.embeddingConfig = new EmbeddingConfigStore(database);
  }

  /** Drops cached rows (after writing to the control database behind this store's back). */
  clearCaches(): void {
    this.keysByHash.drop();
    this.owners.drop();
    this.embeddingConfig.clear();
  }

  /** Creates the default owner if it does not exist yet. */
  async ensureDefaultOwner(workspaceDbUrl: string, now: Date): Promise<void> {
    await this.database.run(
      'INSERT OR IGNORE INTO owners (id, name, workspace_db_url, created_at) VALUES (?, ?, ?, ?)',
      [DEFAULT_OWNER_ID, 'Default workspace', workspaceDbUrl, now.toISOString()],
    );
  }

  /**
   * Creates an owner (a workspace) with a new id (`ws_` and 16 hex digits) and its workspace database URL (null when
   * it has none); throws when the name is taken.
   */
  async createOwner(name: string, workspaceDbUrl: (id: string) => string | null, now: Date): Promise<OwnerRow> {
    const id = `ws_${randomBytes(8).toString('hex')}`;
    const row: OwnerRow = { id, name, workspace_db_url: workspaceDbUrl(id), created_at: now.toISOString() };
    await this.owners.writing(id, () =>
      this.database.run('INSERT INTO owners (id, name, workspace_db_url, created_at) VALUES (?, ?, ?, ?)', [
        row.id,
        row.name,
        row.workspace_db_url,
        row.created_at,
      ]),
    );
    return row;
  }

  async findOwnerByName(name: string): Promise<OwnerRow | undefined> {
    return this.database.get<OwnerRow>('SELECT * FROM owners WHERE name = ?', [name]);
  }

  /** Every workspace with its count of active keys (not revoked, not expired at `now`) and of tenants. */
  async listWorkspaces(now: Date): Promise<WorkspaceSummary[]> {
    const rows = await this.database.all<WorkspaceSummary>(
      `SELECT o.*,
         (SELECT count(*) FROM api_keys k WHERE k.owner_id = o.id AND k.revoked_at IS NULL
           AND (k.expires_at IS NULL OR k.expires_at > ?)) AS active_keys,
         (SELECT count(*) FROM tenants t WHERE t.owner_id = o.id) AS tenants
       FROM owners o ORDER BY o.created_at, o.id`,
      [now.toISOString()],
    );
    return rows.map((row) => ({ ...row, active_keys: Number(row.active_keys), tenants: Number(row.tenants) }));
  }

  /** The ids of owners that have a workspace database, oldest first. */
  async ownersWithWorkspace(): Promise<string[]> {
    const rows = await this.database.all<{ id: string }>(
      'SELECT id FROM owners WHERE workspace_db_url IS NOT NULL ORDER BY created_at',
    );
    return rows.map((row) => row.id);
  }

  async findOwner(ownerId: string): Promise<OwnerRow | undefined> {
    return this.owners.read(ownerId, () => this.database.get<OwnerRow>('SELECT * FROM owners WHERE id = ?', [ownerId]));
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.keysByHash.read(keyHash, () =>
      this.database.get<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?', [keyHash]),
    );
  }

  /** Stores a key (its hash and preview only). */
  async insertKey(
    ownerId: string,
    key: string,
    now: Date,
    expiresAt: Date | null,
    { allowRuleWrites = false }: KeyOptions = {},
  ): Promise<ApiKeyRow> {
    const row: ApiKeyRow = {
      id: randomUUID(),
      owner_id: ownerId,
      key_hash: hashApiKey(key),
      preview: previewApiKey(key),
      created_at: now.toISOString(),
      expires_at: expiresAt?.toISOString() ?? null,
      revoked_at: null,
      last_used_at: null,
      allow_rule_writes: allowRuleWrites ? 1 : 0,
    };
    await this.keysByHash.writing(row.key_hash, () =>
      this.database.run(
        `INSERT OR IGNORE INTO api_keys (id, owner_id, key_hash, preview, created_at, expires_at, revoked_at,
           last_used_at, allow_rule_writes)
         VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?)`,
        [row.id, row.owner_id, row.key_hash, row.preview, row.created_at, row.expires_at, row.allow_rule_writes],
      ),
    );
    return row;
  }

  /** Creates a new random key; the plain key is returned once and never stored. */
  async createKey(
    ownerId: string,
    now: Date,
    expiresAt: Date | null,
    options: KeyOptions = {},
  ): Promise<{ apiKey: string; row: ApiKeyRow }> {
    const apiKey = generateApiKey();
    const row = await this.insertKey(ownerId, apiKey, now, expiresAt, options);
    return { apiKey, row };
  }

  async listKeys(ownerId: string): Promise<ApiKeyRow[]> {
    return this.database.all<ApiKeyRow>('SELECT * FROM api_keys WHERE owner_id = ? ORDER BY created_at, id', [ownerId]);
  }

  async countKeys(): Promise<number> {
    const row = await this.database.get<{ count: number }>('SELECT count(*) AS count FROM api_keys');
    return Number(row?.count ?? 0);
  }

  /** Revokes one key (by id) or every live key of the owner; returns how many were revoked. */
  async revokeKeys(ownerId: string, now: Date, keyId?: string): Promise<number> {
    return this.keysByHash.writing(undefined, () =>
      keyId !== undefined
        ? this.database.run('UPDATE api_keys SET revoked_at = ? WHERE owner_id = ? AND id = ? AND revoked_at IS NULL', [
            now.toISOString(),
            ownerId,
            keyId,
          ])
        : this.database.run('UPDATE api_keys SET revoked_at = ? WHERE owner_id = ? AND revoked_at IS NULL', [
            now.toISOString(),
            ownerId,
          ]),
    );
  }

  async findKey(ownerId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    return this.database.get<ApiKeyRow>('SELECT * FROM api_keys WHERE owner_id = ? AND id = ?', [ownerId, keyId]);
  }

  /** Records use of a key, at most once a minute per key, to keep the hot path write-free. */
  async touchKey(keyId: string, now: Date): Promise<void> {
    const last = this.lastTouched.get(keyId);
    if (last !== undefined && now.getTime() - last < 60_000) return;
    this.lastTouched.set(keyId, now.getTime());
    const threshold = new Date(now.getTime() - 60_000).toISOString();
    await this.database.run(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      [now.toISOString(), keyId, threshold],
    );
  }
}
