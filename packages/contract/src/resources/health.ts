import * as z from 'zod';

export const HealthInputSchema = z.object({});
export const HealthDataSchema = z.object({ status: z.string(), service: z.string(), schemaVersion: z.string() });
