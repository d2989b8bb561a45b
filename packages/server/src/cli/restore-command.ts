import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { Database } from '../store/database.js';
import { sharedDatabasePool } from '../store/database-pool.js';
import { migrate } from '../store/migrate.js';
import { controlMigrations } from '../store/migrations/control.js';
import { relocateDatabases } from '../tenancy/relocate-databases.js';
import { size } from './backup-command.js';
import { filePath } from './backup-plan.js';
import { CliFailure, type CliIo, EXIT_CODES } from './cli-io.js';

/** The database files of a backup folder, relative to it (`control.db`, `tenants/<owner>/<name>.db`...). */
function databaseFiles(folder: string, prefix = ''): string[] {
  return readdirSync(path.join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    if (entry.isDirectory()) return databaseFiles(folder, relative);
    return entry.isFile() && entry.name.endsWith('.db') ? [relative] : [];
  });
}

/**
 * Copies a database file byte for byte (0600, folders 0700), with its write-ahead log when it has one: the backup is
 * only read, never opened as a database (opening it would switch it to WAL and rewrite its header).
 */
function copyFile(source: string, target: string): number {
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true });
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    if (!existsSync(`${source}${suffix}`)) continue;
    copyFileSync(`${source}${suffix}`, `${target}${suffix}`);
    chmodSync(`${target}${suffix}`, 0o600);
    bytes += statSync(`${target}${suffix}`).size;
  }
  return bytes;
}

/**
 * `memory-service restore <backup-dir> [--force]`: copies a backup (`memory-service backup`) into the configured data
 * dir: each database file as it is (0600, folders 0700; the backup's own copies are consistent) in the same layout,
 * and `secret.key`.
 * Refuses a data dir with files in it unless `force` (files of the same name are then replaced, others stay). The
 * restored control database names every database relative to the data dir, so the restored server reads only its
 * own files. Stop the server on the data dir first.
 */
export async function restoreCommand(io: CliIo, directory: string, force: boolean): Promise<number> {
  const config = loadConfig(io.env);
  const backup = path.resolve(directory);
  if (!existsSync(path.join(backup, 'control.db'))) {
    throw new CliFailure(
      `${backup} is not a backup: it has no control.db (make one with 'memory-service backup <dir>')`,
    );
  }
  if (!config.controlDbUrl.startsWith('file:')) {
    throw new CliFailure('MEMORY_CONTROL_DB_URL is a libSQL server: restore its databases there, not into a data dir');
  }
  const dataDir = config.dataDir;
  if (existsSync(dataDir)) {
    if (realpathSync(dataDir) === realpathSync(backup)) throw new CliFailure(`${backup} is the data dir itself`);
    if (!force && readdirSync(dataDir).length > 0) {
      throw new CliFailure(`${dataDir} is not empty (use --force to replace the files the backup has)`);
    }
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pool = sharedDatabasePool(config.databaseWorkers);
  const controlTarget = filePath(config.controlDbUrl);
  let bytes = 0;
  const files = databaseFiles(backup);
  for (const relative of files) {
    const target = relative === 'control.db' ? controlTarget : path.join(dataDir, relative);
    bytes += copyFile(path.join(backup, relative), target);
  }
  const secret = path.join(backup, 'secret.key');
  if (existsSync(secret)) {
    const target = path.join(dataDir, 'secret.key');
    rmSync(target, { force: true });
    copyFileSync(secret, target);
    chmodSync(target, 0o600);
  }
  // Backups made before URLs were relative name the backup folder's files: they become the data dir's.
  const control = await Database.open({ url: `file:${controlTarget}` }, pool);
  try {
    await migrate(control, controlMigrations);
    await relocateDatabases(control, { dataDir, defaultDbUrl: config.defaultDbUrl });
  } finally {
    await control.close();
  }
  io.stdout.write(
    `Restored ${files.length} database${files.length === 1 ? '' : 's'} (${size(bytes)})` +
      `${existsSync(secret) ? ' and secret.key' : ''} from ${backup} into ${dataDir}.\n`,
  );
  io.stdout.write(`Start the server with MEMORY_DATA_DIR=${dataDir}.\n`);
  return EXIT_CODES.ok;
}
