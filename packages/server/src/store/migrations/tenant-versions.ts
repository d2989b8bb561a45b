import type { Migration } from '../migrate.js';

/**
 * Core tenant migration 8: a memory keeps its history (`GET /memories/{id}/history`).
 *
 * - `memory_versions` holds each wording an edit replaced, written by the edit's own transaction
 *   (`MemoryStore.update`): the fields as they were, `valid_from` (the memory's creation or the edit before) and
 *   `replaced_at` (the edit's time). Forgetting a memory deletes its versions; vacuum deletes those of what it purges.
 * - `superseded_at` says when a memory was superseded or merged: `superseded_by` has said by what since migration 1,
 *   but `updated_at` moves again on a later forget, restore or edit. A trigger sets it whenever `superseded_by`
 *   changes (consolidation runs and write-time supersedes alike), so no writer of `superseded_by` has to know;
 *   memories superseded before take their `updated_at`, the best time known.
 */
export const versionsMigrations: readonly Migration[] = [
  {
    version: 8,
    name: 'memory_versions',
    statements: [
      `CREATE TABLE memory_versions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_id TEXT NOT NULL,
        content TEXT NOT NULL,
        type TEXT NOT NULL,
        layer TEXT NOT NULL,
        tags TEXT NOT NULL,
        paths TEXT NOT NULL,
        category TEXT,
        metadata TEXT NOT NULL,
        embedding_model TEXT,
        occurred_at TEXT NOT NULL,
        valid_from TEXT NOT NULL,
        replaced_at TEXT NOT NULL
      )`,
      'CREATE INDEX memory_versions_memory ON memory_versions(memory_id, replaced_at)',
      'ALTER TABLE memories ADD COLUMN superseded_at TEXT',
      'UPDATE memories SET superseded_at = updated_at WHERE superseded_by IS NOT NULL',
      `CREATE TRIGGER memories_superseded_at AFTER UPDATE OF superseded_by ON memories
        WHEN new.superseded_by IS NOT old.superseded_by
      BEGIN
        UPDATE memories SET superseded_at = CASE WHEN new.superseded_by IS NULL THEN NULL ELSE new.updated_at END
         WHERE seq = new.seq;
      END`,
    ],
  },
];
