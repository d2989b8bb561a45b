import * as z from 'zod';
import { TenantIdSchema, UserIdSchema } from '../scope.js';

/** `POST /management/users/erase`: the person to erase and the database (a tenant, or the workspace's own). */
export const EraseUserInputSchema = z.strictObject({
  tenantId: TenantIdSchema.optional(),
  userId: UserIdSchema,
});

/**
 * What an erasure removes, by kind, in the order of the receipt. Rows are rows of the tenant database (vectors of
 * every model's table together); `skillMirrorFiles` are files on disk, `idempotencyKeys` rows of the control database.
 */
export const ERASED_KINDS = [
  'memories',
  'memoryVersions',
  'vectors',
  'graphNodes',
  'graphLinks',
  'graphEdges',
  'memorySubjects',
  'indexJobs',
  'embeddingJobs',
  'graphErrors',
  'sessions',
  'sessionEvents',
  'sessionSnapshots',
  'skillFiles',
  'skillMirrorFiles',
  'lifecycleEvents',
  'retrievalEvents',
  'retrievalMetrics',
  'consolidationRuns',
  'embeddingBackfill',
  'idempotencyKeys',
] as const;
export type ErasedKind = (typeof ERASED_KINDS)[number];

const count = z.number().int().min(0);

/** How many of each kind an erasure removed. */
export const ErasedCountsSchema = z.object({
  memories: count,
  memoryVersions: count,
  vectors: count,
  graphNodes: count,
  graphLinks: count,
  graphEdges: count,
  memorySubjects: count,
  indexJobs: count,
  embeddingJobs: count,
  graphErrors: count,
  sessions: count,
  sessionEvents: count,
  sessionSnapshots: count,
  skillFiles: count,
  skillMirrorFiles: count,
  lifecycleEvents: count,
  retrievalEvents: count,
  retrievalMetrics: count,
  consolidationRuns: count,
  embeddingBackfill: count,
  idempotencyKeys: count,
} satisfies Record<ErasedKind, typeof count>);
export type ErasedCounts = z.infer<typeof ErasedCountsSchema>;

/** The receipt of an erasure. */
export const EraseUserDataSchema = z.object({
  userId: z.string(),
  /** The tenant erased from, or null for the workspace's own database. */
  tenantId: z.string().nullable(),
  erased: ErasedCountsSchema,
  /** Every count of `erased` added up. */
  total: count,
  /**
   * Memories of other users (or shared ones) that an erased memory had superseded: `supersededBy` is cleared, so
   * they are current again (the statement that replaced them is gone). They are kept, not erased.
   */
  supersedesCleared: count,
  message: z.string(),
});
export type EraseUserData = z.infer<typeof EraseUserDataSchema>;
