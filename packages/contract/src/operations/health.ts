import * as health from '../resources/health.js';
import { op } from './define-operation.js';

/** The health route: no authentication. */
export const healthOperations = {
  health: op({
    id: 'health',
    method: 'GET',
    path: '/health',
    summary: 'Service health and contract version',
    description: 'No authentication. Reports the service status and name, and the contract version as `schemaVersion`.',
    tag: 'health',
    auth: 'none',
    scopeSource: 'none',
    input: health.HealthInputSchema,
    data: health.HealthDataSchema,
    successStatus: 200,
  }),
} as const;
