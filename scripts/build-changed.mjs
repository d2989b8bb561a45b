#!/usr/bin/env node
// Builds, quietly, only the packages that `memory-service` runs (the server and the console it serves, with what
// they import) whose sources changed since their last build, in dependency order. `pnpm start` and
// `pnpm memory-service` run it first, so a start with nothing changed takes a moment instead of a full build, and
// the build's output does not bury what the server prints. A failed build prints its output and exits non-zero.
// `--check` builds nothing and prints, as JSON, which packages would be built and why; `--root <dir>` reads another
// checkout (both for the tests).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
const rootArgument = argv.indexOf('--root');
const root =
  rootArgument >= 0
    ? path.resolve(argv[rootArgument + 1] ?? '.')
    : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const checkOnly = argv.includes('--check');
const packagesDirectory = path.join(root, 'packages');

/** The packages `memory-service start` needs built. */
const TARGETS = ['server', 'console'];

/** Where a package's build writes, when not `dist/`: the console builds into the server, which serves it. */
const OUTPUT_DIRECTORIES = { console: '../server/console' };

/** Files a finished build has, beside those its package.json names (the console writes index.html last). */
const FINAL_OUTPUTS = { console: ['index.html'] };

/** What a build reads besides `src/` and `scripts/`. */
const CONFIG_FILES = ['package.json', 'tsconfig.json', 'tsup.config.ts', 'index.html'];

const IMPORT = /from '@memory-service\/([a-z-]+)/g;

function filesUnder(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function newest(files) {
  return files.reduce((latest, file) => Math.max(latest, statSync(file).mtimeMs), 0);
}

/** A package's sources: what its build reads. Tests are not built. */
function sourcesOf(name) {
  const directory = path.join(packagesDirectory, name);
  const sources = [...filesUnder(path.join(directory, 'src')), ...filesUnder(path.join(directory, 'scripts'))];
  const configs = CONFIG_FILES.map((file) => path.join(directory, file)).filter((file) => existsSync(file));
  return [...sources.filter((file) => !/\.test\.tsx?$/.test(file)), ...configs];
}

/** The files a finished build of the package has: what its package.json points at, and FINAL_OUTPUTS. */
function finalOutputsOf(name) {
  const directory = path.join(packagesDirectory, name);
  const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8'));
  const named = [];
  const collect = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./dist/')) named.push(path.join(directory, value));
    } else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect([manifest.main, manifest.module, manifest.types, manifest.exports]);
  const outputDirectory = path.join(directory, OUTPUT_DIRECTORIES[name] ?? 'dist');
  return [...named, ...(FINAL_OUTPUTS[name] ?? []).map((file) => path.join(outputDirectory, file))];
}

/** A build this script started and did not see finish (interrupted or failed) leaves this file behind. */
function unfinishedMarker(name) {
  return path.join(root, 'node_modules', '.cache', 'build-changed', `${name}.building`);
}

function outputsOf(name) {
  return filesUnder(path.join(packagesDirectory, name, OUTPUT_DIRECTORIES[name] ?? 'dist'));
}

/** The workspace packages a package's sources import. */
function importsOf(name) {
  const found = new Set();
  for (const file of sourcesOf(name)) {
    if (!/\.(m?[jt]sx?)$/.test(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) if (match[1] !== name) found.add(match[1]);
  }
  return [...found];
}

/** The targets and everything they import, dependencies before dependents. */
function buildOrder(targets) {
  const order = [];
  const visit = (name, path = []) => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`import cycle: ${[...path, name].join(' -> ')}`);
    for (const dependency of importsOf(name)) visit(dependency, [...path, name]);
    order.push(name);
  };
  for (const target of targets) visit(target);
  return order;
}

/**
 * Stale when it has no output, when its last build did not finish (this script's marker is left, or a file its
 * package.json names is missing), or when a source (or a dependency's output) is newer than its newest output. Every
 * build writes all of its outputs, so the newest output is the time of the last build; a checkout that changes a file
 * gives it a new time, so it counts as changed.
 */
function isStale(name, rebuilt) {
  const outputs = outputsOf(name);
  if (outputs.length === 0) return 'not built';
  if (existsSync(unfinishedMarker(name))) return 'its last build did not finish';
  if (!finalOutputsOf(name).every((file) => existsSync(file))) return 'its last build did not finish';
  const builtAt = newest(outputs);
  if (newest(sourcesOf(name)) > builtAt) return 'changed';
  const dependency = importsOf(name).find((other) => rebuilt.has(other) || newest(outputsOf(other)) > builtAt);
  return dependency === undefined ? null : `${dependency} changed`;
}

const started = Date.now();
const rebuilt = new Set();
const plan = [];
for (const name of buildOrder(TARGETS)) {
  const reason = isStale(name, rebuilt);
  if (reason === null) continue;
  if (checkOnly) {
    plan.push({ name, reason });
    rebuilt.add(name);
    continue;
  }
  process.stderr.write(`building @memory-service/${name} (${reason})\n`);
  mkdirSync(path.dirname(unfinishedMarker(name)), { recursive: true });
  writeFileSync(unfinishedMarker(name), '');
  const result = spawnSync('pnpm', ['--filter', `@memory-service/${name}`, 'build'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.stderr.write(`building @memory-service/${name} failed${result.error ? `: ${result.error.message}` : ''}\n`);
    process.exit(1);
  }
  rmSync(unfinishedMarker(name), { force: true });
  rebuilt.add(name);
}
if (checkOnly) process.stdout.write(`${JSON.stringify(plan)}\n`);
else if (rebuilt.size > 0) process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
