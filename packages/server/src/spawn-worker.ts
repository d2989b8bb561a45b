import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The worker entry points of this package; each is `src/workers/<name>.ts`, built to `dist/<name>.js|.cjs`. Starting
 * them lives here, below the store and embeddings that start them, since the entry points import those back.
 */
export type WorkerName = 'database-worker' | 'inference-worker';

/**
 * Where a worker's script is and how to run it. Built, the entry sits beside the bundle that spawns it (tsup puts
 * every entry and chunk in `dist/`), in the bundle's own module format. From source (tests, `tsx` scripts), the
 * worker runs the TypeScript entry through tsx's loader, which the spawning process already has.
 */
export function workerScript(name: WorkerName): { url: URL; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return { url: new URL(`./workers/${name}.ts`, here), execArgv: ['--import', tsx] };
  }
  return { url: new URL(`./${name}${here.endsWith('.cjs') ? '.cjs' : '.js'}`, here), execArgv: [] };
}

/** Starts one of this package's workers. */
export function spawnWorker(name: WorkerName, options: Omit<WorkerOptions, 'execArgv'> = {}): Worker {
  const { url, execArgv } = workerScript(name);
  return new Worker(url, { ...options, execArgv });
}
