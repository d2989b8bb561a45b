import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * File databases are named in the control database relative to the data dir (`file:tenants/<owner>/<name>.db`), so a
 * data dir (or a backup of one) keeps working when it is moved or copied: every open resolves the name against the
 * data dir the server runs on, never against where the files once were (else a moved backup serves nothing and
 * re-creates the old folder, and a copied one writes into the original's files).
 */

/** The file of a `file:` URL without SQLite's `?` parameters, or null for a relative one or another scheme. */
function absoluteFile(url: string): string | null {
  if (!url.startsWith('file:')) return null;
  const withoutQuery = url.split('?')[0] ?? url;
  if (withoutQuery.startsWith('file://')) return fileURLToPath(withoutQuery);
  const file = withoutQuery.slice('file:'.length);
  return path.isAbsolute(file) ? file : null;
}

/** Whether a URL is a `file:` URL relative to the data dir (`file:workspace.db`). */
export function isDataDirRelative(url: string): boolean {
  if (!url.startsWith('file:') || url.startsWith('file://')) return false;
  const file = url.slice('file:'.length);
  return file !== '' && file !== ':memory:' && !file.startsWith(':memory:') && !path.isAbsolute(file);
}

/** The URL to open: a data-dir-relative `file:` URL made absolute against `dataDir`; any other URL as it is. */
export function resolveDatabaseUrl(dataDir: string, url: string): string {
  return isDataDirRelative(url) ? `file:${path.join(dataDir, url.slice('file:'.length))}` : url;
}

/** The URL to store: a file inside `dataDir` relative to it (`file:tenants/a/b.db`); any other URL as it is. */
export function storedDatabaseUrl(dataDir: string, url: string): string {
  const file = absoluteFile(url);
  if (file === null) return url;
  const relative = path.relative(path.resolve(dataDir), path.resolve(file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return url;
  const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
  return `file:${relative.split(path.sep).join('/')}${query}`;
}

/**
 * The data-dir-relative URL of a file written before URLs were relative, when it lies outside `dataDir` but in the
 * server's own layout (`folder` is the first segment: `tenants` for `tenants/<owner>/<name>.db`, `workspaces` for
 * `workspaces/<id>.db`; `segments` how many trailing segments the layout has): the data dir was moved or copied, and
 * the database is the copy in this one. A file inside `dataDir` just becomes relative. Null for a URL that is not a
 * file, a file outside the layout, or one this data dir has no copy of (an operator placed it elsewhere on purpose:
 * it stays where it is).
 */
export function relocatedDatabaseUrl(
  dataDir: string,
  url: string,
  folder: string | null,
  segments: number,
): string | null {
  const file = absoluteFile(url);
  if (file === null) return null;
  const stored = storedDatabaseUrl(dataDir, url);
  if (stored !== url) return stored;
  const tail = path.resolve(file).split(path.sep).slice(-segments);
  if (tail.length !== segments || (folder !== null && tail[0] !== folder)) return null;
  // Only when this data dir holds that file: the copy is then the one meant. Without it, the file elsewhere is the
  // only one there is (an operator put it there), and the URL keeps naming it.
  if (!existsSync(path.join(dataDir, ...tail))) return null;
  return `file:${tail.join('/')}`;
}
