import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/index.js';
import { KNOWN_DEVIATIONS } from './known-deviations.js';
import { ADMIN_TOKEN, API_KEY, startReferenceServer, type TestServer } from './real-server.js';

// The kit as another implementer gets it: `pnpm pack`ed, installed from the tarball into a fresh folder, and run
// as the `memory-service-conformance` command against a running server.

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));

/** Throws unless dist is newer than src: the tarball holds dist only (`pnpm build` first). */
function assertBuilt(): void {
  const built = statSync(join(PACKAGE_DIR, 'dist', 'cli.js'), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) throw new Error('packages/conformance/dist is missing: run `pnpm build` first');
  for (const entry of readdirSync(join(PACKAGE_DIR, 'src'), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && statSync(join(entry.parentPath, entry.name)).mtimeMs > built) {
      throw new Error('packages/conformance/dist is older than its src: run `pnpm build` first');
    }
  }
}

/** Runs a command; a non-zero exit resolves too, with its code (the command's exit status is under test). */
async function command(
  file: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // Without the variables the command falls back to, so that a missing option is a usage error.
    const { MEMORY_API_KEY: _key, MEMORY_ADMIN_TOKEN: _token, MEMORY_BASE_URL: _url, ...env } = process.env;
    const { stdout, stderr } = await run(file, args, { cwd, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function mustRun(file: string, args: string[], cwd: string): Promise<void> {
  const result = await command(file, args, cwd);
  if (result.code !== 0)
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}\n${result.stdout}\n${result.stderr}`);
}

describe('memory-service-conformance from a packed tarball', { timeout: 90_000 }, () => {
  let folder: string;
  let project: string;
  let reference: TestServer;
  let bin: string;

  beforeAll(async () => {
    assertBuilt();
    folder = await mkdtemp(join(tmpdir(), 'memory-conformance-packed-'));
    project = join(folder, 'project');
    const tarballs = join(folder, 'tarballs');
    await mkdir(project, { recursive: true });
    const [server] = await Promise.all([
      startReferenceServer(),
      (async () => {
        await mustRun('pnpm', ['pack', '--pack-destination', tarballs], PACKAGE_DIR);
        const tarball = readdirSync(tarballs).find((name) => name.endsWith('.tgz'));
        const dependencies = { '@memory-service/conformance': `file:${join(tarballs, tarball!)}` };
        await writeFile(
          join(project, 'package.json'),
          JSON.stringify({ name: 'conformance-user', private: true, dependencies }),
        );
        // From the pnpm store when it has everything, else from the registry.
        const offline = await command('pnpm', ['install', '--offline'], project);
        if (offline.code !== 0) await mustRun('pnpm', ['install', '--prefer-offline'], project);
      })(),
    ]);
    reference = server;
    bin = join(project, 'node_modules', '.bin', 'memory-service-conformance');
  }, 90_000);

  afterAll(async () => {
    await reference?.stop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('installs only the kit and its published dependencies (no workspace package)', () => {
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', '@memory-service', 'conformance', 'package.json'), 'utf8'),
    ) as { dependencies: Record<string, string>; bin: Record<string, string> };
    expect(Object.keys(manifest.dependencies).filter((name) => name.startsWith('@memory-service/'))).toEqual([]);
    expect(manifest.bin).toEqual({ 'memory-service-conformance': './dist/cli.js' });
  });

  it('checks the running server: a grouped report, a JSON report, exit status 0 unless a check failed', async () => {
    const jsonFile = join(folder, 'report.json');
    const result = await command(
      bin,
      [reference.server.url, '--key', API_KEY, '--admin-token', ADMIN_TOKEN, '--json', jsonFile],
      project,
    );
    const report = JSON.parse(await readFile(jsonFile, 'utf8')) as ConformanceReport;
    const failed = report.results.filter((each) => each.status === 'fail').map((each) => each.id);
    const known = KNOWN_DEVIATIONS.map((deviation) => deviation.checkId);
    expect(
      failed.filter((id) => !known.includes(id)),
      result.stdout,
    ).toEqual([]);
    expect(result.code).toBe(failed.length > 0 ? 1 : 0);
    expect(result.stdout).toContain('envelope - Envelope, meta and health');
    expect(result.stdout).toContain('PASS  health: GET /health answers 200 without a key');
    expect(result.stdout).toMatch(failed.length > 0 ? /DOES NOT CONFORM: \d+ checks/ : /CONFORMS: \d+ checks/);
    expect(report.summary.passed).toBeGreaterThan(150);
    const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string };
    expect(report.tool).toEqual({ name: 'memory-service-conformance', version });
  });

  it('runs only the named groups, and answers usage errors with exit status 2', async () => {
    const only = await command(
      bin,
      [`${reference.server.url}/api/sdk/v1/`, '--key', API_KEY, '--only', 'envelope,errors', '--json', '-'],
      project,
    );
    const report = JSON.parse(only.stdout) as ConformanceReport;
    expect(report.groups).toEqual(['setup', 'envelope', 'errors', 'cleanup']);
    expect(only.stderr).toContain('errors - Error codes and limits');
    expect((await command(bin, [reference.server.url], project)).code).toBe(2);
    expect((await command(bin, [reference.server.url, '--key', API_KEY, '--only', 'nope'], project)).code).toBe(2);
    const help = await command(bin, ['--help'], project);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: memory-service-conformance <baseUrl> --key <apiKey>');
  });
});
