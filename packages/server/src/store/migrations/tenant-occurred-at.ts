import type { Migration } from '../migrate.js';

/**
 * Core tenant migration 7: a memory knows when what it says happened or was said (`occurred_at`, the additive
 * `occurredAt` of add and edit). Memories stored before were said when they were written: the column is backfilled
 * from `created_at`. The index serves the newest-first reads that rank by it (the recency fallback of context/get).
 */
export const occurredAtMigrations: readonly Migration[] = [
  {
    version: 7,
    name: 'memories_occurred_at',
    statements: [
      'ALTER TABLE memories ADD COLUMN occurred_at TEXT',
      'UPDATE memories SET occurred_at = created_at WHERE occurred_at IS NULL',
      'CREATE INDEX memories_live_occurred ON memories(deleted_at, occurred_at)',
    ],
  },
];
