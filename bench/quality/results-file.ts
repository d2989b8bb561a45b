import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The checkout the run measured: short commit, with `-dirty` when the tree has changes. */
export function checkoutLabel(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() !== '';
    return dirty ? `${commit}-dirty` : commit;
  } catch {
    return 'unknown';
  }
}

/** Writes the JSON report into `folder` (`quality-<time>.json`); returns its path. */
export function writeResults(folder: string, startedAt: Date, report: unknown): string {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `quality-${startedAt.toISOString().replaceAll(':', '-').replace('.', '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
