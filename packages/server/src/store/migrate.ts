import type { Database } from './database.js';

/** One versioned migration: statements applied together, once. */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

/** Applies the migrations a database has not seen yet, each in its own transaction. Idempotent. */
export async function migrate(database: Database, migrations: readonly Migration[]): Promise<void> {
  await database.run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (await database.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) =>
      Number(row.version),
    ),
  );
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    await database.transaction([
      ...migration.statements.map((sql) => ({ sql, args: [] })),
      {
        sql: 'INSERT OR IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        args: [migration.version, migration.name, new Date().toISOString()],
      },
    ]);
  }
}
