import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOURCE_ROOT = fileURLToPath(new URL('../src/', import.meta.url));
/** The stores of a tenant's tables; `TenantDatabase` builds one of each per open database. */
const TENANT_STORES = ['MemoryStore', 'SessionStore', 'SkillStore'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe("one door to a tenant's tables", () => {
  it('constructs the tenant stores only in TenantDatabase, so every caller shares its state and caches', () => {
    const constructed = sourceFiles(SOURCE_ROOT).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const relative = path.relative(SOURCE_ROOT, file);
      return TENANT_STORES.filter((store) => text.includes(`new ${store}(`)).map((store) => `${relative}: ${store}`);
    });
    expect(constructed.sort()).toEqual([
      'tenancy/tenant-database.ts: MemoryStore',
      'tenancy/tenant-database.ts: SessionStore',
      'tenancy/tenant-database.ts: SkillStore',
    ]);
  });
});
