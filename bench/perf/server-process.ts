import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** This checkout's server package (its built `dist/` is what runs). */
const SERVER_ROOT = path.resolve(here, '../../packages/server');

/**
 * The embedding model of the benchmark server: feature hashing, so 100k vectors can be built in minutes. The default
 * sentence encoder costs 25-40 ms per memory on this machine (see BENCHMARKS.md), which would make seeding 100k
 * memories take about an hour and bound write throughput by the model, not the server.
 */
export const BENCH_EMBEDDING_MODEL = 'local/hash-384';

/** The server's default embedding model (`MEMORY_EMBEDDING_MODEL` unset), measured in the encoder runs. */
export const DEFAULT_ENCODER_MODEL = 'local/use-lite-512';

/** How a server process is started. */
export interface ServerProcessOptions {
  /** `MEMORY_EMBEDDING_MODEL` of the process (default {@link BENCH_EMBEDDING_MODEL}). */
  embeddingModel?: string;
  /** More environment variables (e.g. the libSQL server URLs); they win over the bench's own environment. */
  environment?: Record<string, string>;
  /** Node options (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** The `packages/server` folder whose built `dist/` runs (default this checkout's; another to compare a fix). */
  serverRoot?: string;
}

/** The server under test, in its own process (as users run it), on a free loopback port. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** Current resident set size (VmRSS), in MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

/** How long a stopped server may take to close its databases before it is killed. */
const STOP_GRACE_MS = 30_000;

function statusField(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match?.[1] ? Number(match[1]) / 1024 : Number.NaN;
}

/**
 * Starts the built server (packages/server) as a user does, `memory-service start` through its launcher (which
 * starts Node with the server's own flags: `bin/memory-service.js`), on `dataDir` and a free loopback port, with rate
 * limits off and logs quiet; the embedding model is set through `MEMORY_EMBEDDING_MODEL`, as a user would set it.
 */
export async function startServerProcess(
  dataDir: string,
  apiKey: string,
  {
    embeddingModel = BENCH_EMBEDDING_MODEL,
    environment = {},
    nodeArgs = [],
    serverRoot = SERVER_ROOT,
  }: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const launcher = path.resolve(serverRoot, 'bin/memory-service.js');
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, launcher, 'start'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: dataDir,
    env: {
      ...process.env,
      MEMORY_HOST: '127.0.0.1',
      MEMORY_PORT: '0',
      MEMORY_DATA_DIR: dataDir,
      MEMORY_BOOTSTRAP_API_KEY: apiKey,
      MEMORY_LOG_LEVEL: 'warn',
      MEMORY_RATE_LIMIT_PER_MINUTE: '0',
      MEMORY_IP_RATE_LIMIT_PER_MINUTE: '0',
      MEMORY_EMBEDDING_MODEL: embeddingModel,
      ...environment,
    },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    // The start banner's first line says where it listens; what it prints after that is drained, never kept.
    const listening = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match?.[1]) return;
      child.stdout?.off('data', listening);
      child.stdout?.resume();
      resolve(match[1]);
    };
    child.stdout?.on('data', listening);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    peakRssMb: () => statusField(pid, 'VmHWM'),
    rssMb: () => statusField(pid, 'VmRSS'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // A server that does not close in time (e.g. a batch of a long indexing backlog in progress) is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
