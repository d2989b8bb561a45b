import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../src/store/database.js';
import { migrate } from '../src/store/migrate.js';
import { controlMigrations } from '../src/store/migrations/control.js';
import { tenantMigrations } from '../src/store/migrations/tenant.js';

const directory = mkdtempSync(path.join(tmpdir(), 'memory-migrate-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('migrations when several servers open one database at once', () => {
  it('applies each migration once and fails none of the openers', async () => {
    for (const [name, migrations] of [
      ['control', controlMigrations],
      ['tenant', tenantMigrations],
    ] as const) {
      for (let round = 0; round < 5; round++) {
        const file = `file:${path.join(directory, `${name}-${round}.db`)}`;
        const openers = await Promise.all([0, 1, 2].map(() => Database.open({ url: file })));
        try {
          await Promise.all(openers.map((database) => migrate(database, migrations)));
          const versions = await openers[0]?.all<{ version: number }>(
            'SELECT version FROM schema_migrations ORDER BY version',
          );
          expect(versions?.map((row) => row.version)).toEqual(
            migrations.map((migration) => migration.version).sort((a, b) => a - b),
          );
        } finally {
          await Promise.all(openers.map((database) => database.close()));
        }
      }
    }
  });
});
