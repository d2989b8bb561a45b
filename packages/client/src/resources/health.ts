import type { OperationData } from '@memory-service/contract';
import type { OperationCaller } from '../types.js';

/** `client.health()`: service status and contract version (no key needed). */
export function createHealthResource(call: OperationCaller): () => Promise<OperationData<'health'>> {
  return () => call('health', {});
}
