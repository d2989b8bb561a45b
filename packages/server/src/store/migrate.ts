import type { InStatement } from '@libsql/client';
import type { Database } from './database.js';

/** One versioned migration: statements applied together, once. */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
  /**
   * Statements computed from the data (what SQL cannot compute, such as a hash in JavaScript), read just before the
   * migration and applied first in its transaction.
   */
  backfill?: (database: Database) => Promise<InStatement[]>;
}

async function appliedVersions(database: Database): Promise<Set<number>> {
  const rows = await database.all<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(rows.map((row) => Number(row.version)));
}

/**
 * The versions applied so far, creating the table of them in a database that has none. Read first, as a read: a
 * database opened again (a tenant reopened after its handle was evicted, often once per request when more tenants are
 * in use than the cache holds) then costs one read, not a write statement on its writer.
 */
async function existingVersions(database: Database): Promise<Set<number>> {
  if (!(await database.hasSchemaObject('table', 'schema_migrations')))
    await database.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
  return appliedVersions(database);
}

/**
 * Applies the migrations a database has not seen yet, each in its own transaction. Idempotent, and safe when several
 * server processes open one shared database at once: a migration that fails because another process applied it
 * first (its transaction rolled back whole) is skipped; any other failure is thrown.
 */
export async function migrate(database: Database, migrations: readonly Migration[]): Promise<void> {
  const applied = await existingVersions(database);
  if (migrations.every((migration) => applied.has(migration.version))) return;
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    try {
      await database.transaction([
        ...((await migration.backfill?.(database)) ?? []),
        ...migration.statements.map((sql) => ({ sql, args: [] })),
        {
          sql: 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
          args: [migration.version, migration.name, new Date().toISOString()],
        },
      ]);
    } catch (error) {
      if (!(await appliedVersions(database)).has(migration.version)) throw error;
    }
  }
}
