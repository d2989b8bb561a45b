import {
  DEFAULTS,
  defaultLayer,
  type MemoryLayer,
  type MemoryType,
  type OperationInput,
} from '@memory-service/contract';
import type { NewMemory } from '../store/memory-rows.js';
import { occurredAtOf } from './occurred-at.js';

/** The type of a memory whose request names none. */
const DEFAULT_TYPE: MemoryType = 'note';

/**
 * When a memory of this layer expires: a working memory after the working TTL (`DEFAULTS.workingMemoryTtlHours`,
 * then the expiry sweep soft-deletes it), any other never.
 */
export function expiryFor(layer: MemoryLayer, now: Date): string | null {
  return layer === 'working'
    ? new Date(now.getTime() + DEFAULTS.workingMemoryTtlHours * 3_600_000).toISOString()
    : null;
}

/**
 * The memory a `memories/add` stores: the request's fields with their defaults, embedded with `embeddingModel`;
 * throws the 400 of an `occurredAt` in the future.
 */
export function newMemory(input: OperationInput<'memories.add'>, embeddingModel: string, now: Date): NewMemory {
  const type = input.type ?? DEFAULT_TYPE;
  const layer = input.layer ?? defaultLayer(type);
  const occurredAt = occurredAtOf(input.occurredAt, now);
  return {
    content: input.content,
    type,
    layer,
    tags: input.tags ?? [],
    paths: input.paths ?? [],
    category: input.category ?? null,
    metadata: input.metadata ?? {},
    embeddingModel,
    expiresAt: expiryFor(layer, now),
    ...(occurredAt === undefined ? {} : { occurredAt }),
  };
}
