import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices } from '../src/bootstrap.js';
import { eraseUserCommand } from '../src/cli/erase-command.js';
import { Database, type DatabaseLocation } from '../src/store/database.js';
import { runCapturing } from './cli-run.js';
import { createTestServer } from './harness.js';

const ALICE = 'alice-cli-1';
const BOB = 'bob-cli-2';
let dataDir: string;
const locations = new Map<string | null, DatabaseLocation>();

/** Memories of Alice and Bob (Alice's in the workspace database and in tenant acme), then the server is stopped. */
beforeAll(async () => {
  const server = await createTestServer();
  dataDir = server.dataDir;
  for (const tenantId of [undefined, 'acme']) {
    for (const userId of [ALICE, BOB]) {
      const scope = { tenantId, userId };
      await server.post('/memories/add', { content: `${userId} likes green tea`, scope });
      const session = await server.post<{ sessionId: string }>('/sessions/start', { title: 'chat', scope });
      await server.post('/sessions/checkpoint', { sessionId: session.sessionId, content: `${userId} said hi`, scope });
    }
    locations.set(
      tenantId ?? null,
      (await server.services.resolver.location('default', tenantId ?? null, new Date()))!,
    );
  }
  await server.indexed();
  // Stopped without removing its data dir (server.close() would): the CLI runs on it.
  await closeServices(server.services);
}, 60_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function countOf(tenantId: string | null, userId: string): Promise<{ memories: number; sessions: number }> {
  const database = await Database.open(locations.get(tenantId)!);
  try {
    const memories = await database.get<{ n: number }>('SELECT count(*) AS n FROM memories WHERE user_id = ?', [
      userId,
    ]);
    const sessions = await database.get<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE user_id = ?', [
      userId,
    ]);
    return { memories: Number(memories?.n), sessions: Number(sessions?.n) };
  } finally {
    await database.close();
  }
}

const env = () => ({ MEMORY_DATA_DIR: dataDir, MEMORY_LOG_LEVEL: 'silent' });

describe('memory-service erase-user', () => {
  it('refuses without --yes when there is no terminal to confirm on, and an invalid userId or unknown tenant', async () => {
    const unconfirmed = await runCapturing(['erase-user', ALICE], env());
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('pass --yes');
    expect((await runCapturing(['erase-user', '-x y', '--yes'], env())).code).toBe(2);
    const unknown = await runCapturing(['erase-user', ALICE, '--tenant', 'nobody', '--yes'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no tenant 'nobody'");
    expect(await countOf(null, ALICE)).toEqual({ memories: 1, sessions: 1 });
  });

  it('erases nothing when the typed userId does not match', async () => {
    let stderr = '';
    const io = {
      env: env(),
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      waitForShutdown: () => new Promise<string>(() => undefined),
      now: () => new Date(),
    };
    let asked = '';
    const code = await eraseUserCommand(io, ALICE, { yes: false }, async (question) => {
      asked = question;
      return 'bob';
    });
    expect(code).toBe(1);
    expect(asked).toContain(`user ${ALICE} from the workspace database of workspace default`);
    expect(stderr).toContain('nothing was erased');
    expect(await countOf(null, ALICE)).toEqual({ memories: 1, sessions: 1 });
  });

  it('erases the person from the database picked, prints the receipt, and leaves the others', async () => {
    const run = await runCapturing(['erase-user', ALICE, '--yes'], env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Erased`);
    expect(run.stdout).toContain(`of user ${ALICE} from the workspace database.`);
    expect(run.stdout).toMatch(/^ {2}memories\s+1$/m);
    expect(run.stdout).toMatch(/^ {2}sessions\s+1$/m);
    expect(run.stdout).toMatch(/^ {2}sessionEvents\s+1$/m);
    expect(await countOf(null, ALICE)).toEqual({ memories: 0, sessions: 0 });
    expect(await countOf(null, BOB)).toEqual({ memories: 1, sessions: 1 });
    // Another database of the workspace is another person's record store: untouched until named.
    expect(await countOf('acme', ALICE)).toEqual({ memories: 1, sessions: 1 });

    let stdout = '';
    const io = {
      env: env(),
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => true },
      waitForShutdown: () => new Promise<string>(() => undefined),
      now: () => new Date(),
    };
    expect(await eraseUserCommand(io, ALICE, { tenantId: 'acme', yes: false }, async () => ` ${ALICE}\n`)).toBe(0);
    expect(stdout).toContain(`of user ${ALICE} from tenant acme.`);
    expect(await countOf('acme', ALICE)).toEqual({ memories: 0, sessions: 0 });
    expect(await countOf('acme', BOB)).toEqual({ memories: 1, sessions: 1 });
  });
});
