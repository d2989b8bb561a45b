import type { Migration } from '../migrate.js';

/** Control-plane database: owners, API keys, tenant mappings, embedding configuration. */
export const controlMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'owners_keys_tenants',
    statements: [
      `CREATE TABLE owners (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        workspace_db_url TEXT,
        created_at TEXT NOT NULL
      )`,
      `CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL REFERENCES owners(id),
        key_hash TEXT NOT NULL UNIQUE,
        preview TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        last_used_at TEXT
      )`,
      'CREATE INDEX api_keys_owner ON api_keys(owner_id, created_at)',
      `CREATE TABLE tenants (
        owner_id TEXT NOT NULL REFERENCES owners(id),
        tenant_id TEXT NOT NULL,
        mode TEXT NOT NULL,
        status TEXT NOT NULL,
        source TEXT NOT NULL,
        db_url TEXT,
        db_token_encrypted TEXT,
        db_name TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (owner_id, tenant_id)
      )`,
      `CREATE TABLE embedding_config (
        owner_id TEXT NOT NULL,
        project_id TEXT NOT NULL DEFAULT '',
        model_id TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (owner_id, project_id)
      )`,
      `CREATE TABLE embedding_allowlist (
        owner_id TEXT NOT NULL,
        model_id TEXT NOT NULL,
        PRIMARY KEY (owner_id, model_id)
      )`,
    ],
  },
  {
    // Workspaces: an owner is a workspace, named uniquely so `workspaces list` is unambiguous.
    version: 2,
    name: 'workspace_names',
    statements: ['CREATE UNIQUE INDEX owners_name ON owners(name)'],
  },
  {
    // Rule writes over MCP: only keys minted with the permission (1) write rules there (a model must not plant one).
    version: 3,
    name: 'key_rule_writes',
    statements: ['ALTER TABLE api_keys ADD COLUMN allow_rule_writes INTEGER NOT NULL DEFAULT 0'],
  },
  {
    // Idempotent writes (issue 25): a write's Idempotency-Key, the fingerprint of its first body and, once it has
    // run, its answer (status null while it runs), kept until expires_at (IDEMPOTENCY.retentionHours).
    version: 4,
    name: 'idempotency_keys',
    statements: [
      `CREATE TABLE idempotency_keys (
        owner_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER,
        answer TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (owner_id, idempotency_key)
      )`,
      'CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at)',
    ],
  },
];
