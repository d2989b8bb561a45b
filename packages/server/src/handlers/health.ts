import { CONTRACT_VERSION, SERVICE_NAME } from '@memory-service/contract';
import type { Handler } from '../pipeline/handler-types.js';

/** `GET /health`: no auth, no database. */
export const health: Handler<'health'> = async () => ({
  status: 'ok',
  service: SERVICE_NAME,
  schemaVersion: CONTRACT_VERSION,
});
