import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { ERASED_KINDS, type EraseUserData, TENANT_ID_PATTERN, USER_ID_PATTERN } from '@memory-service/contract';
import { loadConfig } from '../config.js';
import { DEFAULT_OWNER_ID } from '../store/control-store.js';
import { Database } from '../store/database.js';
import { erasePerson } from '../store/erase-user/index.js';
import { migrate } from '../store/migrate.js';
import { tenantMigrations } from '../store/migrations/tenant.js';
import { openDataDir } from '../transfer/data-dir.js';
import { CliFailure, type CliIo, EXIT_CODES, UsageError } from './cli-io.js';

/** Asks a question on the terminal and answers what was typed, or null when there is no terminal to ask on. */
export type Ask = (question: string) => Promise<string | null>;

/** Asks on the process's terminal (stdin and stderr), or answers null when stdin is not a terminal. */
export const askOnTerminal: Ask = async (question) => {
  if (process.stdin.isTTY !== true) return null;
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } finally {
    terminal.close();
  }
};

/** What `erase-user` takes besides the userId. */
export interface EraseOptions {
  workspace?: string | undefined;
  tenantId?: string | undefined;
  /** Erase without asking (`--yes`). */
  yes: boolean;
}

/** The receipt as text: one line per kind, aligned. */
export function describeReceipt(receipt: EraseUserData): string {
  const width = Math.max(...ERASED_KINDS.map((kind) => kind.length));
  const lines = ERASED_KINDS.map((kind) => `  ${kind.padEnd(width)}  ${receipt.erased[kind]}`);
  const cleared =
    receipt.supersedesCleared === 0
      ? []
      : [`${receipt.supersedesCleared} memories of others that theirs had superseded are current again.`];
  return [`${receipt.message}.`, ...lines, `  ${'total'.padEnd(width)}  ${receipt.total}`, ...cleared, ''].join('\n');
}

function fileOf(url: string): string | null {
  return url.startsWith('file:') ? (url.split('?')[0] ?? url).slice('file:'.length) : null;
}

/**
 * `memory-service erase-user <userId> [--tenant <id>] [--workspace <id>] [--yes]`: erases a person from one database
 * of the data dir (`erasePerson`) and prints the receipt. Without `--yes` it asks for the userId to be typed again,
 * on a terminal only: with no terminal it refuses. Reads the data dir and settings as `export` does.
 */
export async function eraseUserCommand(
  io: CliIo,
  userId: string,
  options: EraseOptions,
  ask: Ask = askOnTerminal,
): Promise<number> {
  if (!USER_ID_PATTERN.test(userId)) throw new UsageError(`'${userId}' is not a valid userId`, 'erase-user');
  if (options.tenantId !== undefined && !TENANT_ID_PATTERN.test(options.tenantId))
    throw new UsageError(`'${options.tenantId}' is not a valid tenant id`, 'erase-user');
  const ownerId = options.workspace ?? DEFAULT_OWNER_ID;
  const tenantId = options.tenantId ?? null;
  const where = `${tenantId === null ? 'the workspace database' : `tenant ${tenantId}`} of workspace ${ownerId}`;
  const now = io.now();
  const dataDir = await openDataDir(loadConfig(io.env), { create: false, now });
  try {
    if ((await dataDir.control.findOwner(ownerId)) === undefined)
      throw new CliFailure(`no workspace with id ${ownerId} (see: memory-service workspaces list)`);
    if (tenantId !== null && (await dataDir.registry.find(ownerId, tenantId)) === undefined)
      throw new CliFailure(`no tenant '${tenantId}' in workspace ${ownerId}`);
    const location = await dataDir.resolver.location(ownerId, tenantId, now);
    const file = location === null ? null : fileOf(location.url);
    if (location === null || (file !== null && !existsSync(file)))
      throw new CliFailure(`${where} has no database yet: nothing to erase`);
    if (!options.yes) {
      const answer = await ask(
        `Erase every record of user ${userId} from ${where}, for good? Type the userId to confirm: `,
      );
      if (answer === null) throw new UsageError('not a terminal: pass --yes to erase without confirming', 'erase-user');
      if (answer.trim() !== userId) {
        io.stderr.write('Not confirmed: nothing was erased.\n');
        return EXIT_CODES.failure;
      }
    }
    const database = await Database.open(location);
    try {
      await migrate(database, tenantMigrations);
      const receipt = await erasePerson({
        database,
        control: dataDir.control.database,
        dataDir: dataDir.config.dataDir,
        ownerId,
        tenantId,
        userId,
        now,
      });
      io.stdout.write(describeReceipt(receipt));
    } finally {
      await database.close();
    }
    return EXIT_CODES.ok;
  } finally {
    await dataDir.close();
  }
}
