import type { Migration } from '../migrate.js';
import { candidateIndexMigrations } from './tenant-candidate-index.js';
import { duplicatesMigrations } from './tenant-duplicates.js';
import { embeddingMigrations } from './tenant-embeddings.js';
import { ftsMigrations } from './tenant-fts.js';
import { graphMigrations } from './tenant-graph.js';
import { indexingMigrations } from './tenant-indexing.js';
import { occurredAtMigrations } from './tenant-occurred-at.js';
import { versionsMigrations } from './tenant-versions.js';

/** Memories, FTS index, sessions, skill files, lifecycle events (versions 1-9). */
const coreMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'memories',
    statements: [
      // `seq` is the stable rowid the FTS index points at (a TEXT primary key's rowid may change on VACUUM).
      `CREATE TABLE memories (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        content TEXT NOT NULL,
        type TEXT NOT NULL,
        layer TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        paths TEXT NOT NULL DEFAULT '[]',
        category TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        user_id TEXT,
        project_id TEXT,
        embedding_model TEXT,
        superseded_by TEXT,
        content_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        expires_at TEXT,
        deleted_at TEXT
      )`,
      'CREATE INDEX memories_live ON memories(deleted_at, layer, created_at)',
      'CREATE INDEX memories_scope ON memories(user_id, project_id, deleted_at)',
      'CREATE INDEX memories_expiry ON memories(expires_at) WHERE expires_at IS NOT NULL',
      `CREATE VIRTUAL TABLE memories_fts USING fts5(
        content, tags, category, paths,
        content = 'memories', content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2'
      )`,
      `CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts(rowid, content, tags, category, paths)
        VALUES (new.seq, new.content, new.tags, coalesce(new.category, ''), new.paths);
      END`,
      `CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, content, tags, category, paths)
        VALUES ('delete', old.seq, old.content, old.tags, coalesce(old.category, ''), old.paths);
      END`,
      `CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags, category, paths ON memories BEGIN
        INSERT INTO memories_fts(memories_fts, rowid, content, tags, category, paths)
        VALUES ('delete', old.seq, old.content, old.tags, coalesce(old.category, ''), old.paths);
        INSERT INTO memories_fts(rowid, content, tags, category, paths)
        VALUES (new.seq, new.content, new.tags, coalesce(new.category, ''), new.paths);
      END`,
      // Lifecycle events feed observability (created, updated, deleted, consolidated, ...).
      `CREATE TABLE lifecycle_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        subject_id TEXT,
        user_id TEXT,
        project_id TEXT,
        detail TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX lifecycle_events_kind ON lifecycle_events(kind, created_at)',
    ],
  },
  {
    version: 2,
    name: 'sessions_skills',
    statements: [
      `CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT,
        project_id TEXT,
        client TEXT,
        status TEXT NOT NULL,
        title TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        started_at TEXT NOT NULL,
        last_activity_at TEXT NOT NULL,
        ended_at TEXT
      )`,
      'CREATE INDEX sessions_scope ON sessions(user_id, project_id, started_at)',
      `CREATE TABLE session_events (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        kind TEXT NOT NULL,
        content TEXT NOT NULL,
        token_count INTEGER NOT NULL,
        turn_index INTEGER NOT NULL,
        is_meaningful INTEGER NOT NULL,
        created_at TEXT NOT NULL
      )`,
      'CREATE UNIQUE INDEX session_events_order ON session_events(session_id, seq)',
      `CREATE TABLE session_snapshots (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        slug TEXT NOT NULL,
        source_trigger TEXT NOT NULL,
        transcript_md TEXT NOT NULL,
        message_count INTEGER NOT NULL,
        last_event_seq INTEGER NOT NULL,
        summary TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE UNIQUE INDEX session_snapshots_order ON session_snapshots(session_id, seq)',
      `CREATE TABLE skill_files (
        id TEXT PRIMARY KEY,
        path TEXT NOT NULL,
        title TEXT,
        content TEXT NOT NULL,
        user_id TEXT,
        project_id TEXT,
        scope_key TEXT NOT NULL,
        use_count INTEGER NOT NULL DEFAULT 0,
        last_used_at TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      )`,
      // One live file per path within an exact (user, project) scope.
      'CREATE UNIQUE INDEX skill_files_path ON skill_files(scope_key, path) WHERE deleted_at IS NULL',
      'CREATE INDEX skill_files_scope ON skill_files(user_id, project_id, deleted_at)',
    ],
  },
  {
    version: 3,
    name: 'fts_rank_expiry_index',
    statements: [
      // The BM25 column weights as the table's rank function, so `ORDER BY rank LIMIT n` keeps a top-n heap.
      "INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(1.0, 1.5, 1.2, 0.75)')",
      'DROP INDEX IF EXISTS memories_expiry',
      'CREATE INDEX memories_expiry ON memories(expires_at) WHERE expires_at IS NOT NULL AND deleted_at IS NULL',
    ],
  },
];

/**
 * Every migration of a tenant (or workspace) database. Version ranges per area keep them apart:
 * core 1-9, embeddings 10-19, graph/rollout/consolidation 20-29 (30-39 are kept for management state), indexing 40-49.
 */
export const tenantMigrations: readonly Migration[] = [
  ...coreMigrations,
  ...ftsMigrations,
  ...duplicatesMigrations,
  ...occurredAtMigrations,
  ...versionsMigrations,
  ...candidateIndexMigrations,
  ...embeddingMigrations,
  ...graphMigrations,
  ...indexingMigrations,
];
