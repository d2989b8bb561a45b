import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Prints the functions with the most self time in the newest V8 CPU profile of a folder
 * (`pnpm bench --profile` writes them): `tsx bench/perf/profile-summary.ts [folder] [top]`.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const folder = process.argv[2] ?? 'bench/results/profiles';
const top = Number(process.argv[3] ?? 30);
const newest = readdirSync(folder)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort()
  .at(-1);
if (newest === undefined) throw new Error(`no .cpuprofile in ${folder}`);
const profile = JSON.parse(readFileSync(path.join(folder, newest), 'utf8')) as { nodes: ProfileNode[] };
const totals = new Map<string, number>();
let all = 0;
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  all += hits;
  const frame = node.callFrame;
  const where = frame.url
    .replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^file:\/\/.*\/packages\//, 'packages/');
  const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  totals.set(key, (totals.get(key) ?? 0) + hits);
}
console.log(`${newest}: ${all} samples`);
for (const [key, hits] of [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${((hits / all) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
