import * as z from 'zod';
import { DEFAULTS, LIMITS } from '../limits.js';
import { boundedInt, MetadataRecordSchema, nonBlank, scopeField, TimestampSchema } from './common.js';
import { RecordScopeSchema } from './memory.js';

export const SkillPathSchema = nonBlank(z.string().min(LIMITS.skillPath.min).max(LIMITS.skillPath.max));

/** A skill file: a named document (a procedure, a how-to) returned beside memories. */
export const SkillFileSchema = z.object({
  id: z.string(),
  path: z.string(),
  title: z.string().nullable(),
  content: z.string(),
  userId: z.string().nullable(),
  projectId: z.string().nullable(),
  /** `project` when `projectId` is set, else `global` (see `RecordScopeSchema`). */
  scope: RecordScopeSchema,
  useCount: z.number().int(),
  /** `useCount` under the memories.sh name (an additive field). */
  usageCount: z.number().int(),
  lastUsedAt: TimestampSchema.nullable(),
  /**
   * The procedure the file holds (`metadata.procedureKey`: set by an upsert that names one, and by promote), else
   * null. An additive field, as memories.sh sends it.
   */
  procedureKey: z.string().nullable(),
  metadata: MetadataRecordSchema,
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type SkillFile = z.infer<typeof SkillFileSchema>;

export const UpsertSkillFileInputSchema = z.strictObject({
  path: SkillPathSchema,
  content: z.string().min(LIMITS.skillContent.min).max(LIMITS.skillContent.max),
  /**
   * Beyond the written contract, as memories.sh sends it: the procedure the file holds (1..120 chars, as promote's),
   * kept as `metadata.procedureKey` and answered as `skillFile.procedureKey`.
   */
  procedureKey: z.string().min(LIMITS.procedureKey.min).max(LIMITS.procedureKey.max).optional(),
  ...scopeField,
});
export const UpsertSkillFileDataSchema = z.object({
  skillFile: SkillFileSchema,
  created: z.boolean(),
  message: z.string(),
});

export const ListSkillFilesInputSchema = z.strictObject({
  limit: boundedInt(LIMITS.skillListLimit).default(DEFAULTS.skillListLimit),
  /** Beyond the written contract: a page's `nextCursor`, to list the files after that page (same scope). */
  cursor: z.string().min(LIMITS.skillListCursor.min).max(LIMITS.skillListCursor.max).optional(),
  ...scopeField,
});
export const ListSkillFilesDataSchema = z.object({
  skillFiles: z.array(SkillFileSchema),
  /** How many files `skillFiles` holds. */
  count: z.number().int(),
  /**
   * Beyond the written contract, as are the two below: whether `LIMITS.skillListBytes` ended the page before `limit`
   * files (the next files are there, whole, on the next page).
   */
  truncated: z.boolean(),
  /** How many of the `limit` files after the cursor the byte budget left out of this page. */
  omitted: z.number().int(),
  /** Pass as `cursor` for the files after this page; null when no visible file follows. */
  nextCursor: z.string().nullable(),
});

export const DeleteSkillFileInputSchema = z.strictObject({ path: SkillPathSchema, ...scopeField });
export const DeleteSkillFileDataSchema = z.object({ path: z.string(), deleted: z.literal(true), message: z.string() });

export const PromoteSkillFileInputSchema = z.strictObject({
  sessionId: nonBlank(z.string().min(LIMITS.sessionId.min).max(LIMITS.sessionId.max)),
  /** The snapshot to promote; the session's latest when omitted. */
  snapshotId: z.string().min(1).max(120).optional(),
  path: SkillPathSchema,
  title: z.string().min(LIMITS.promoteTitle.min).max(LIMITS.promoteTitle.max).optional(),
  procedureKey: z.string().min(LIMITS.procedureKey.min).max(LIMITS.procedureKey.max).optional(),
  maxSteps: boundedInt(LIMITS.maxSteps).default(DEFAULTS.maxSteps),
  ...scopeField,
});
export const PromoteSkillFileDataSchema = z.object({
  skillFile: SkillFileSchema,
  created: z.boolean(),
  source: z.object({
    sessionId: z.string(),
    snapshotId: z.string(),
    snapshotSlug: z.string(),
    snapshotCreatedAt: TimestampSchema,
  }),
  message: z.string(),
});
