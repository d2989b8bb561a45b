import * as z from 'zod';
import {
  CheckpointKindSchema,
  CheckpointRoleSchema,
  SessionEndStatusSchema,
  SessionStatusSchema,
  SnapshotTriggerSchema,
} from '../enums.js';
import { DEFAULTS, LIMITS } from '../limits.js';
import { ResolvedScopeSchema, scopeQueryShape } from '../scope.js';
import {
  boundedInt,
  MetadataRecordSchema,
  MetadataSchema,
  nonBlank,
  queryInt,
  scopeField,
  TimestampSchema,
} from './common.js';

export const SessionIdSchema = nonBlank(z.string().min(LIMITS.sessionId.min).max(LIMITS.sessionId.max));

/** A working session. */
export const SessionSchema = z.object({
  id: z.string(),
  scope: ResolvedScopeSchema,
  projectId: z.string().nullable(),
  userId: z.string().nullable(),
  client: z.string().nullable(),
  status: SessionStatusSchema,
  title: z.string().nullable(),
  startedAt: TimestampSchema,
  lastActivityAt: TimestampSchema,
  endedAt: TimestampSchema.nullable(),
  metadata: MetadataRecordSchema,
});
export type Session = z.infer<typeof SessionSchema>;

/** A checkpoint event of a session. */
export const SessionEventSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  role: CheckpointRoleSchema,
  kind: CheckpointKindSchema,
  content: z.string(),
  tokenCount: z.number().int(),
  turnIndex: z.number().int(),
  isMeaningful: z.boolean(),
  createdAt: TimestampSchema,
});
export type SessionEvent = z.infer<typeof SessionEventSchema>;

/** A snapshot written when a session ends or is compacted. */
export const SessionSnapshotSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  slug: z.string(),
  sourceTrigger: SnapshotTriggerSchema,
  transcriptMd: z.string(),
  messageCount: z.number().int(),
  /** The latest summary checkpoint's content, else null. */
  summary: z.string().nullable(),
  createdAt: TimestampSchema,
});
export type SessionSnapshot = z.infer<typeof SessionSnapshotSchema>;

export const StartSessionInputSchema = z.strictObject({
  title: z.string().min(LIMITS.sessionTitle.min).max(LIMITS.sessionTitle.max).optional(),
  client: z.string().min(LIMITS.sessionClient.min).max(LIMITS.sessionClient.max).optional(),
  metadata: MetadataSchema.optional(),
  ...scopeField,
});
export const StartSessionDataSchema = z.object({ sessionId: z.string(), message: z.string(), session: SessionSchema });

export const CheckpointInputSchema = z.strictObject({
  sessionId: SessionIdSchema,
  content: nonBlank(z.string().min(LIMITS.checkpointContent.min).max(LIMITS.checkpointContent.max)),
  role: CheckpointRoleSchema.default('user'),
  kind: CheckpointKindSchema.default('message'),
  /** Estimated from the content (chars / 4) when omitted. */
  tokenCount: boundedInt(LIMITS.tokenCount).optional(),
  /** The next turn index of the session when omitted. */
  turnIndex: boundedInt(LIMITS.turnIndex).optional(),
  isMeaningful: z.boolean().default(true),
  ...scopeField,
});
/**
 * What a session holds once a checkpoint is written (an addition to the contract): enough for a client that keeps
 * no state between requests to judge compaction and to carry a summary, without another call.
 */
export const SessionTotalsSchema = z.object({
  /** User messages in the session, counting this checkpoint. */
  turnCount: z.number().int(),
  /** The token counts of all its events, summed. */
  tokenCount: z.number().int(),
  eventCount: z.number().int(),
  /** The session's last activity before this checkpoint. */
  previousActivityAt: TimestampSchema,
  /** The content of its latest `summary` checkpoint (what a compaction carried over), else null. */
  summary: z.string().nullable(),
});
export type SessionTotals = z.infer<typeof SessionTotalsSchema>;

export const CheckpointDataSchema = z.object({
  sessionId: z.string(),
  eventId: z.string(),
  message: z.string(),
  event: SessionEventSchema,
  totals: SessionTotalsSchema,
});

export const EndSessionInputSchema = z.strictObject({
  sessionId: SessionIdSchema,
  status: SessionEndStatusSchema.default('closed'),
  ...scopeField,
});
export const EndSessionDataSchema = z.object({
  sessionId: z.string(),
  message: z.string(),
  session: SessionSchema,
  snapshot: SessionSnapshotSchema,
});

export const SnapshotInputSchema = z.strictObject({ sessionId: SessionIdSchema, ...scopeQueryShape });
export const SnapshotDataSchema = z.object({
  sessionId: z.string(),
  message: z.string(),
  snapshot: SessionSnapshotSchema,
});

// sessions/list and sessions/{sessionId}/events: extensions beyond the written contract.
export const ListSessionsInputSchema = z.strictObject({
  status: SessionStatusSchema.optional(),
  limit: queryInt(LIMITS.sessionListLimit).default(DEFAULTS.sessionListLimit),
  ...scopeQueryShape,
});
/** A listed session with what it holds so far. */
export const ListedSessionSchema = SessionSchema.extend({
  totals: SessionTotalsSchema.pick({ turnCount: true, tokenCount: true, eventCount: true }),
});
export type ListedSession = z.infer<typeof ListedSessionSchema>;
export const ListSessionsDataSchema = z.object({ sessions: z.array(ListedSessionSchema), count: z.number().int() });

export const SessionEventsInputSchema = z.strictObject({
  sessionId: SessionIdSchema,
  limit: queryInt(LIMITS.sessionEventsLimit).default(DEFAULTS.sessionEventsLimit),
  ...scopeQueryShape,
});
export const SessionEventsDataSchema = z.object({
  sessionId: z.string(),
  events: z.array(SessionEventSchema),
  count: z.number().int(),
});
