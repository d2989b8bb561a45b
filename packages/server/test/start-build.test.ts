import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `pnpm start` and `pnpm memory-service` run scripts/build-changed.mjs first: it builds only the packages whose
 * sources changed since their last build. Checked on a small workspace of its own (`--root`), with `--check`, which
 * says what it would build and builds nothing.
 */
const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/build-changed.mjs');

let workspace = '';
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const HOUR = 3_600_000;
const built = Date.now() - HOUR;

function write(file: string, content: string, at: number): void {
  const full = path.join(workspace, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
  utimesSync(full, at / 1000, at / 1000);
}

/** contract <- client <- console, contract <- server; every source written before its build. */
function builtWorkspace(): void {
  workspace = mkdtempSync(path.join(tmpdir(), 'memory-start-build-'));
  const sources = built - HOUR;
  for (const name of ['contract', 'client', 'server', 'console']) write(`packages/${name}/package.json`, '{}', sources);
  write('packages/contract/src/index.ts', 'export const a = 1;', sources);
  write('packages/contract/dist/index.js', 'export const a = 1;', built);
  write('packages/client/src/index.ts', "import { a } from '@memory-service/contract';", sources);
  write('packages/client/dist/index.js', '', built);
  write('packages/server/src/index.ts', "import { a } from '@memory-service/contract';", sources);
  write('packages/server/src/index.test.ts', '', sources);
  write('packages/server/dist/index.js', '', built);
  write('packages/console/src/main.tsx', "import { b } from '@memory-service/client';", sources);
  write('packages/server/console/index.html', '', built);
}

function plan(): Array<{ name: string; reason: string }> {
  return JSON.parse(execFileSync(process.execPath, [script, '--check', '--root', workspace], { encoding: 'utf8' }));
}

describe('pnpm start builds only what changed', () => {
  it('builds nothing when every build is newer than its sources', () => {
    builtWorkspace();
    expect(plan()).toEqual([]);
  });

  it('rebuilds a changed package and the packages that import it, dependencies first', () => {
    builtWorkspace();
    write('packages/contract/src/index.ts', 'export const a = 2;', Date.now());
    expect(plan()).toEqual([
      { name: 'contract', reason: 'changed' },
      { name: 'server', reason: 'contract changed' },
      { name: 'client', reason: 'contract changed' },
      { name: 'console', reason: 'client changed' },
    ]);
  });

  it('rebuilds only the leaf when only the leaf changed, and ignores tests', () => {
    builtWorkspace();
    write('packages/server/src/index.test.ts', 'changed', Date.now());
    expect(plan()).toEqual([]);
    write('packages/server/src/index.ts', "import { a } from '@memory-service/contract'; // changed", Date.now());
    expect(plan()).toEqual([{ name: 'server', reason: 'changed' }]);
  });

  it('builds a package that was never built', () => {
    builtWorkspace();
    rmSync(path.join(workspace, 'packages/server/console'), { recursive: true });
    expect(plan()).toEqual([{ name: 'console', reason: 'not built' }]);
  });
});

describe('an unfinished build', () => {
  it('is built again: a file its package.json names is missing, or its marker was left', () => {
    builtWorkspace();
    write(
      'packages/client/package.json',
      JSON.stringify({ exports: { '.': { import: './dist/index.js', types: './dist/index.d.ts' } } }),
      built - HOUR,
    );
    expect(plan()).toEqual([
      { name: 'client', reason: 'its last build did not finish' },
      { name: 'console', reason: 'client changed' },
    ]);
    write('packages/client/dist/index.d.ts', '', built);
    write('node_modules/.cache/build-changed/server.building', '', built);
    expect(plan()).toEqual([{ name: 'server', reason: 'its last build did not finish' }]);
  });
});
