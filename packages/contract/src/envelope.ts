import * as z from 'zod';
import { type ApiErrorObject, ApiErrorObjectSchema } from './errors.js';
import { CONTRACT_VERSION } from './version.js';

/** `meta` of every envelope. */
export const MetaSchema = z.object({
  version: z.string(),
  endpoint: z.string(),
  requestId: z.string(),
  timestamp: z.string(),
});
export type Meta = z.infer<typeof MetaSchema>;

/** The success envelope around a route's data schema. */
export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ ok: z.literal(true), data, error: z.null(), meta: MetaSchema });
}

/** The error envelope. */
export const ErrorEnvelopeSchema = z.object({
  ok: z.literal(false),
  data: z.null(),
  error: ApiErrorObjectSchema,
  meta: MetaSchema,
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** Any envelope, data left open. */
export const EnvelopeSchema = z.union([successEnvelopeSchema(z.unknown()), ErrorEnvelopeSchema]);
export type Envelope<T> = { ok: true; data: T; error: null; meta: Meta } | ErrorEnvelope;

/** Builds `meta` for a response. */
export function buildMeta(endpoint: string, requestId: string, now: Date = new Date()): Meta {
  return { version: CONTRACT_VERSION, endpoint, requestId, timestamp: now.toISOString() };
}

/** Wraps data in the success envelope. */
export function successEnvelope<T>(data: T, meta: Meta): { ok: true; data: T; error: null; meta: Meta } {
  return { ok: true, data, error: null, meta };
}

/** Wraps an error object in the error envelope. */
export function errorEnvelope(error: ApiErrorObject, meta: Meta): ErrorEnvelope {
  return { ok: false, data: null, error, meta };
}
