import * as z from 'zod';
import { TriggerHintSchema } from '../enums.js';

/**
 * The lifecycle hints a client's `context.get` accepts (docs/architecture.md#session-lifecycle). Client libraries read them and never send
 * them: the contract's context/get body has no such fields.
 */
export const LifecycleHintsSchema = z.object({
  /** The working session; needed for `includeSessionSummary`. */
  sessionId: z.string().min(1).optional(),
  /** Token budget of the prompt context; above it, compaction is due (`count`). */
  budgetTokens: z.number().nonnegative().optional(),
  /** Turns so far in the session. */
  turnCount: z.number().int().nonnegative().optional(),
  /** Turn budget; above it, compaction is due (`count`). */
  turnBudget: z.number().int().nonnegative().optional(),
  /** The session's last activity: ISO 8601 string, Date, or epoch milliseconds. */
  lastActivityAt: z.union([z.string(), z.date(), z.number()]).optional(),
  /** Inactivity at or past this many minutes makes compaction due (`time`). */
  inactivityThresholdMinutes: z.number().nonnegative().optional(),
  /** The task is done: compaction is due (`semantic`). */
  taskCompleted: z.boolean().optional(),
  /** Fetch the session's latest snapshot and return it as `sessionSummary`. */
  includeSessionSummary: z.boolean().optional(),
});
export type LifecycleHints = z.infer<typeof LifecycleHintsSchema>;

/** The client's verdict on the session, added to every `context.get` result as `session`. */
export const SessionHintsSchema = z.object({
  compactionRequired: z.boolean(),
  triggerHint: TriggerHintSchema.nullable(),
  /** Why compaction is due, in words; null when it is not. */
  reason: z.string().nullable(),
});
export type SessionHints = z.infer<typeof SessionHintsSchema>;
