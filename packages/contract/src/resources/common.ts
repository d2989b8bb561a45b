import * as z from 'zod';
import { LIMITS } from '../limits.js';
import { ScopeSchema } from '../scope.js';

/** ISO 8601 UTC timestamp string. */
export const TimestampSchema = z.string();

/** Free-form metadata object. */
export const MetadataSchema = z.record(z.string(), z.unknown());

/** `scope` as it appears in request bodies. */
export const scopeField = { scope: ScopeSchema.optional() };

/** An integer between bounds, optional with a default. */
export function boundedInt(bounds: { min: number; max: number }) {
  return z.number().int().min(bounds.min).max(bounds.max);
}

/** A query-string integer (GET routes): coerced from text, then bounded. */
export function queryInt(bounds: { min: number; max: number }) {
  return z.coerce.number<number | string>().int().min(bounds.min).max(bounds.max);
}

export const TagsSchema = z
  .array(z.string().min(LIMITS.tags.itemMin).max(LIMITS.tags.itemMax))
  .max(LIMITS.tags.maxItems);
export const PathsSchema = z
  .array(z.string().min(LIMITS.paths.itemMin).max(LIMITS.paths.itemMax))
  .max(LIMITS.paths.maxItems);
export const CategorySchema = z.string().min(LIMITS.category.min).max(LIMITS.category.max);
export const EmbeddingModelIdSchema = z.string().min(LIMITS.embeddingModel.min).max(LIMITS.embeddingModel.max);
export const QuerySchema = z.string().max(LIMITS.query.max);

/** A string that must contain more than whitespace. */
export function nonBlank<T extends z.ZodString>(schema: T): T {
  return schema.refine((value) => value.trim().length > 0, 'must not be blank') as unknown as T;
}

/** A message-only response. */
export const MessageSchema = z.string();
