import { availableParallelism } from 'node:os';
import { InferencePool, type InferencePoolSettings } from './inference-pool.js';

/** `loadConfig`'s defaults, for a pool used before any server configured it (a script calling the registry). */
const DEFAULT_SETTINGS: InferencePoolSettings = {
  workers: Math.max(1, availableParallelism() - 1),
  queueLimit: 2_048,
  batchSize: 32,
  batchWindowMs: 4,
};

let shared: InferencePool | undefined;

/**
 * The process's inference pool, created on first use: threads are the machine's resource, not one server's. Servers
 * sharing a process share it (they share its cores): each `createServices` applies its settings, so the latest
 * server's `MEMORY_EMBEDDING_*` settings hold for all; threads start on demand and stop after 5 idle minutes, or at
 * once when the last server closes.
 */
export function sharedInferencePool(): InferencePool {
  shared ??= new InferencePool(DEFAULT_SETTINGS);
  return shared;
}
