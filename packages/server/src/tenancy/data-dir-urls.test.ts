import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { relocatedDatabaseUrl, resolveDatabaseUrl, storedDatabaseUrl } from './data-dir-urls.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-data-dir-urls-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('database URLs relative to the data dir', () => {
  it('stores a file inside the data dir relative to it, and opens it against the data dir it runs on', () => {
    const stored = storedDatabaseUrl(dataDir, `file:${path.join(dataDir, 'tenants', 'default', 'acme.db')}`);
    expect(stored).toBe('file:tenants/default/acme.db');
    expect(resolveDatabaseUrl('/srv/moved', stored)).toBe(`file:${path.join('/srv/moved', 'tenants/default/acme.db')}`);
    expect(storedDatabaseUrl(dataDir, 'libsql://acme.example.com')).toBe('libsql://acme.example.com');
  });

  it("takes a moved data dir's file for the copy this data dir holds, and leaves a file it has no copy of", () => {
    mkdirSync(path.join(dataDir, 'tenants', 'default'), { recursive: true });
    writeFileSync(path.join(dataDir, 'tenants', 'default', 'copied.db'), '');
    const elsewhere = (name: string) => `file:/old/place/tenants/default/${name}`;
    expect(relocatedDatabaseUrl(dataDir, elsewhere('copied.db'), 'tenants', 3)).toBe('file:tenants/default/copied.db');
    expect(relocatedDatabaseUrl(dataDir, elsewhere('placed-on-purpose.db'), 'tenants', 3)).toBeNull();
    expect(relocatedDatabaseUrl(dataDir, 'file:/srv/other/acme.db', 'tenants', 3)).toBeNull();
  });
});
