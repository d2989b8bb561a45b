import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { loadConfig, type ServerConfig } from '../config.js';
import { vacuumInto } from '../store/backup.js';
import { Database } from '../store/database.js';
import { type DatabasePool, sharedDatabasePool } from '../store/database-pool.js';
import { namespaceFetch } from '../tenancy/host-routed-fetch.js';
import { type BackupItem, filePath, listDatabases, relativeTarget } from './backup-plan.js';
import { CliFailure, type CliIo, describeFailure, EXIT_CODES } from './cli-io.js';
import { table } from './keys-commands.js';

/** What happened to one item, as one line of the report. */
type Outcome =
  | { item: BackupItem; bytes: number }
  | { item: BackupItem; skipped: string }
  | { item: BackupItem; failed: string };

/** Makes the backup folder (0700), refusing one with files in it unless `force`, and the data dir itself. */
function prepareFolder(config: ServerConfig, folder: string, force: boolean): void {
  if (existsSync(folder)) {
    if (!statSync(folder).isDirectory()) throw new CliFailure(`${folder} exists and is not a folder`);
    if (existsSync(config.dataDir) && realpathSync(folder) === realpathSync(config.dataDir)) {
      throw new CliFailure(`${folder} is the data dir itself; back up into another folder`);
    }
    if (!force && readdirSync(folder).length > 0) {
      throw new CliFailure(`${folder} is not empty (use --force to overwrite the files of an earlier backup there)`);
    }
  }
  mkdirSync(folder, { recursive: true, mode: 0o700 });
}

/** Writes a consistent copy of a file database with `VACUUM INTO` (a read transaction: a running server may write on). */
async function copyDatabase(pool: DatabasePool, url: string, target: string): Promise<number> {
  if (path.resolve(filePath(url)) === path.resolve(target)) throw new Error('the copy would overwrite its source');
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true });
  // VACUUM INTO accepts an empty file: created first so the copy is 0600 whatever the umask.
  closeSync(openSync(target, 'wx', 0o600));
  const database = await Database.open({ url }, pool);
  try {
    await vacuumInto(database, target);
  } finally {
    await database.close();
  }
  return statSync(target).size;
}

/** The host of a remote database, never its path or parameters (which may carry a token). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'a libSQL server';
  }
}

/** A size for people: `512 B`, `1.5 MiB`. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Copies one item (a remote one is skipped, a file not created yet as well); never throws. */
async function backUp(pool: DatabasePool, folder: string, item: BackupItem): Promise<Outcome> {
  if (item.relative === null) return { item, skipped: `remote (${hostOf(item.url)}): back it up on its server` };
  if (!existsSync(filePath(item.url))) return { item, skipped: 'not created yet' };
  try {
    return { item, bytes: await copyDatabase(pool, item.url, path.join(folder, item.relative)) };
  } catch (error) {
    return { item, failed: describeFailure(error) };
  }
}

/** Copies `secret.key` (attach tokens are sealed with it) as 0600; says what it did, or undefined when there is none. */
function copySecretKey(config: ServerConfig, folder: string): string | undefined {
  if (config.secretKey !== undefined && config.secretKey !== '') {
    return 'MEMORY_SECRET_KEY is set: keep it with this backup, the tokens of attached databases need it';
  }
  const source = path.join(config.dataDir, 'secret.key');
  if (!existsSync(source)) return undefined;
  const target = path.join(folder, 'secret.key');
  rmSync(target, { force: true });
  copyFileSync(source, target);
  chmodSync(target, 0o600);
  return 'secret.key copied (0600): the tokens of attached databases are sealed with it; guard it like the databases';
}

/**
 * `memory-service backup <dir> [--force]`: a consistent copy (`VACUUM INTO`) of the control database and of every
 * workspace and tenant file database, in the data dir's layout, so `MEMORY_DATA_DIR=<dir>` starts a server on it.
 * The copied control database names the copies relative to the folder, so the backup can be moved or copied. Safe
 * while a server runs on the same data dir.
 */
export async function backupCommand(io: CliIo, directory: string, force: boolean): Promise<number> {
  const config = loadConfig(io.env);
  const folder = path.resolve(directory);
  const controlIsFile = config.controlDbUrl.startsWith('file:');
  if (controlIsFile && !existsSync(filePath(config.controlDbUrl))) {
    throw new CliFailure(
      `no control database at ${filePath(config.controlDbUrl)}: nothing to back up (check MEMORY_DATA_DIR)`,
    );
  }
  prepareFolder(config, folder, force);
  const pool = sharedDatabasePool(config.databaseWorkers);
  const controlItem: BackupItem = {
    label: 'control database',
    url: config.controlDbUrl,
    relative: controlIsFile ? relativeTarget(config, config.controlDbUrl, 'control.db') : null,
  };
  const outcomes = [await backUp(pool, folder, controlItem)];
  if ('failed' in outcomes[0]!) throw new CliFailure(`could not copy the control database: ${outcomes[0].failed}`);
  // The tables are read from the copy when there is one, so the list is the snapshot's.
  const control = await Database.open(
    controlItem.relative === null
      ? {
          url: config.controlDbUrl,
          authToken: config.controlDbToken,
          ...(config.controlDbNamespace ? { fetch: namespaceFetch(config.controlDbNamespace) } : {}),
        }
      : { url: `file:${path.join(folder, controlItem.relative)}` },
    pool,
  );
  try {
    const items = await listDatabases(config, control);
    const seen = new Map<string, string>([[path.join(folder, controlItem.relative ?? ''), controlItem.url]]);
    for (const item of items) {
      if (item.relative !== null) {
        const target = path.join(folder, item.relative);
        const other = seen.get(target);
        if (other !== undefined && filePath(other) !== filePath(item.url)) {
          outcomes.push({ item, failed: `its copy ${item.relative} would overwrite another database's` });
          continue;
        }
        seen.set(target, item.url);
      }
      outcomes.push(await backUp(pool, folder, item));
      // The copied control database names the copies relative to the backup folder, so the folder works as a data
      // dir as it is, wherever it is moved or copied to (tenancy/data-dir-urls.ts).
      if (controlItem.relative !== null && item.relative !== null && item.repoint !== undefined) {
        await item.repoint(control, `file:${item.relative.split(path.sep).join('/')}`);
      }
    }
  } finally {
    await control.close();
  }
  const secretNote = copySecretKey(config, folder);
  return report(io, folder, outcomes, secretNote, controlItem.relative !== null);
}

/** Prints one line per database and a summary; 1 when any copy failed. */
function report(
  io: CliIo,
  folder: string,
  outcomes: Outcome[],
  secretNote: string | undefined,
  usable: boolean,
): number {
  const rows = outcomes.map(({ item, ...result }) => {
    if ('bytes' in result) return [item.label, item.relative ?? '', size(result.bytes)];
    if ('skipped' in result) return [item.label, '-', `skipped: ${result.skipped}`];
    return [item.label, '-', `FAILED: ${result.failed}`];
  });
  io.stdout.write(`${table([['DATABASE', 'COPY', 'SIZE'], ...rows])}\n`);
  if (secretNote !== undefined) io.stdout.write(`${secretNote}\n`);
  const copied = outcomes.filter((outcome) => 'bytes' in outcome);
  const total = copied.reduce((sum, outcome) => sum + ('bytes' in outcome ? outcome.bytes : 0), 0);
  const remote = outcomes.filter((outcome) => 'skipped' in outcome && outcome.skipped.startsWith('remote')).length;
  const failed = outcomes.filter((outcome) => 'failed' in outcome).length;
  io.stdout.write(
    `Backed up ${copied.length} database${copied.length === 1 ? '' : 's'} (${size(total)}) to ${folder}` +
      `${remote > 0 ? `; ${remote} remote skipped` : ''}.\n`,
  );
  if (failed > 0)
    throw new CliFailure(`backup incomplete: ${failed} database${failed === 1 ? '' : 's'} could not be copied`);
  if (usable) {
    io.stdout.write(
      `Start a server on it with MEMORY_DATA_DIR=${folder} (it may be moved or copied first), ` +
        `or copy it into a data dir with 'memory-service restore ${folder}'.\n`,
    );
  }
  return EXIT_CODES.ok;
}
