import * as z from 'zod';
import { LIMITS } from '../limits.js';
import { ScopeSchema } from '../scope.js';

/** ISO 8601 UTC timestamp string. */
export const TimestampSchema = z.string();

/** Metadata as a returned record carries it: what a request wrote through `MetadataSchema`, or the server. */
export const MetadataRecordSchema = z.record(z.string(), z.unknown());

/**
 * Whether a JSON-like value nests deeper than `maxDepth` (the value itself is level 1), or holds more than
 * `maxValues` values. Walks with an explicit stack, never recursion: input nested 100,000 deep is refused before
 * recursive code (`JSON.stringify`, a store) can overflow the call stack on it.
 */
export function nestingProblem(value: unknown, maxDepth: number, maxValues: number): 'depth' | 'values' | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  let values = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > maxDepth) return 'depth';
    for (const child of Object.values(item.value)) {
      // JSON.stringify drops undefined members; every other value takes at least one byte.
      if (child === undefined) continue;
      values += 1;
      if (values > maxValues) return 'values';
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: item.depth + 1 });
    }
  }
  return null;
}

/** UTF-8 bytes of a value's JSON, or null when it has none (a BigInt, a toJSON that throws). */
function jsonBytes(value: unknown): number | null {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? null : new TextEncoder().encode(json).byteLength;
  } catch {
    return null;
  }
}

/**
 * A request's free-form `metadata` object: at most `LIMITS.metadata.maxDepth` levels deep (checked first, without
 * recursion) and `LIMITS.metadata.maxBytes` bytes of JSON. Every request schema that takes metadata uses this one.
 */
export const MetadataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((metadata, context) => {
    const { maxBytes, maxDepth } = LIMITS.metadata;
    // More values than bytes means more than maxBytes of JSON, so the walk stops there: its work is bounded too.
    const problem = nestingProblem(metadata, maxDepth, maxBytes);
    if (problem === 'depth') {
      context.addIssue({ code: 'custom', message: `must nest at most ${maxDepth} levels (the object is level 1)` });
      return;
    }
    const bytes = problem === 'values' ? Number.POSITIVE_INFINITY : jsonBytes(metadata);
    if (bytes === null) context.addIssue({ code: 'custom', message: 'must be plain JSON' });
    else if (bytes > maxBytes)
      context.addIssue({ code: 'custom', message: `must be at most ${maxBytes} bytes of JSON` });
  })
  .describe(
    `Free-form JSON object: at most ${LIMITS.metadata.maxBytes} bytes (UTF-8) and ${LIMITS.metadata.maxDepth} levels deep.`,
  );

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

/**
 * The additive `indexPending` of read traces (context/get, memories/search, graph/trace) and of the embeddings
 * observability `queue`: how many of the scope's memories still wait for their index job (vectors and graph edges;
 * found lexically meanwhile), counted up to 10,000 in a trace. Sent by this server; optional for other servers.
 */
export const IndexPendingSchema = z
  .number()
  .int()
  .optional()
  .describe(
    "The scope's memories still waiting for their index job (vectors, graph edges); a trace counts up to 10,000. An additive field.",
  );

/** A string that must contain more than whitespace. */
export function nonBlank<T extends z.ZodString>(schema: T): T {
  // A pattern, not a refinement, so that the OpenAPI document states the rule (`pattern: "\\S"`): JavaScript's `\s`
  // is exactly the whitespace `trim()` removes.
  return schema.regex(NON_BLANK, 'must not be blank') as T;
}

/** Holds a character other than whitespace. */
export const NON_BLANK = /\S/;

/** A message-only response. */
export const MessageSchema = z.string();
