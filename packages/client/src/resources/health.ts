import type { OperationData } from '@memory-service/contract';
import type { RequestOptions } from '../request-options.js';
import type { OperationCaller } from '../types.js';

/** `client.health()`: service status and contract version (no key needed). */
export function createHealthResource(
  call: OperationCaller,
): (options?: RequestOptions) => Promise<OperationData<'health'>> {
  return (options) => call('health', {}, options);
}
