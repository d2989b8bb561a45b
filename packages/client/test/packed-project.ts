import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The monorepo's `packages/` folder. */
export const PACKAGES_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** The newest modification time of any file under a folder. */
function newestChange(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Throws unless the package's `dist` exists and is newer than its `src`: a packed tarball holds `dist` only. */
export function assertBuilt(packageName: string): void {
  const packageDir = join(PACKAGES_DIR, packageName);
  let built: number;
  try {
    built = statSync(join(packageDir, 'dist', 'index.cjs')).mtimeMs;
  } catch {
    throw new Error(`packages/${packageName}/dist is missing: run \`pnpm build\` first`);
  }
  if (newestChange(join(packageDir, 'src')) > built) {
    throw new Error(`packages/${packageName}/dist is older than its src: run \`pnpm build\` first`);
  }
}

function manifest(packageName: string): { devDependencies?: Record<string, string> } {
  return JSON.parse(readFileSync(join(PACKAGES_DIR, packageName, 'package.json'), 'utf8'));
}

/** Runs a command, putting its output in the error when it fails. */
export async function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024, ...options });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${options.cwd}\n${stdout}\n${stderr}`, { cause: error });
  }
}

/**
 * Packs the given workspace packages with `pnpm pack` (which writes the real versions in place of `workspace:*`) and
 * installs the tarballs into a new project, as a user would: their dependencies come from the pnpm store, or the
 * registry when the store lacks one. Returns the project's folder.
 */
export async function installPackedProject(folder: string, packageNames: readonly string[]): Promise<string> {
  const tarballs = join(folder, 'tarballs');
  const project = join(folder, 'project');
  await mkdir(project, { recursive: true });
  await mkdir(tarballs, { recursive: true });
  const fileSpecs: Record<string, string> = {};
  for (const packageName of packageNames) {
    const before = new Set(readdirSync(tarballs));
    await runCommand('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(PACKAGES_DIR, packageName) });
    const tarball = readdirSync(tarballs).find((name) => !before.has(name));
    if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for packages/${packageName}`);
    fileSpecs[`@memory-service/${packageName}`] = `file:${join(tarballs, tarball)}`;
  }
  // What a user of the middleware installs beside it (peer dependencies), and the MCP client for transport 'mcp'.
  const middlewareDev = manifest('ai-middleware').devDependencies ?? {};
  const clientDev = manifest('client').devDependencies ?? {};
  const peers = {
    ai: middlewareDev.ai,
    '@ai-sdk/provider': middlewareDev['@ai-sdk/provider'],
    '@modelcontextprotocol/client': clientDev['@modelcontextprotocol/client'],
  };
  const dependencies = { ...fileSpecs, ...Object.fromEntries(Object.entries(peers).filter(([, range]) => range)) };
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'packed-install-check', private: true, dependencies }, null, 2),
  );
  // The packed manifests name each other by version ("0.1.0"), which no registry has: point them at the tarballs.
  const overrides = Object.entries(fileSpecs).map(([name, spec]) => `  "${name}": "${spec}"`);
  await writeFile(join(project, 'pnpm-workspace.yaml'), `overrides:\n${overrides.join('\n')}\n`);
  try {
    await runCommand('pnpm', ['install', '--offline'], { cwd: project });
  } catch {
    // The store lacks something: let pnpm fetch what is missing.
    await runCommand('pnpm', ['install', '--prefer-offline'], { cwd: project });
  }
  return project;
}
