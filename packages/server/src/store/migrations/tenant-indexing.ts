import type { Migration } from '../migrate.js';

/** Tenant database migrations for the durable indexing queue (versions 40-49). */
export const indexingMigrations: readonly Migration[] = [
  {
    version: 40,
    name: 'index_jobs',
    statements: [
      // One row per memory whose vector and graph edges are still to be derived: written in the transaction that
      // writes the memory, deleted in the transaction that stores what was derived. Rows are the queue, so a killed
      // process loses no indexing work.
      `CREATE TABLE index_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        memory_seq INTEGER NOT NULL UNIQUE,
        memory_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        generation INTEGER NOT NULL DEFAULT 0,
        claimed_by TEXT,
        claimed_until INTEGER NOT NULL DEFAULT 0,
        last_error_code TEXT,
        created_at TEXT NOT NULL
      )`,
    ],
  },
];
