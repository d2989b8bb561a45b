import { TriggerHintSchema } from '@memory-service/contract';
import * as z from 'zod';

/**
 * The lifecycle hints `context.get` accepts (DESIGN 8). The client reads them and never sends them: the contract's
 * context/get body has no such fields.
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

/** The lifecycle hints of `context.get`. */
export type LifecycleHints = z.infer<typeof LifecycleHintsSchema>;

/** The names of the lifecycle hints, stripped from what `context.get` sends. */
export const LIFECYCLE_HINT_KEYS = LifecycleHintsSchema.keyof().options;

/** The client's verdict on the session, added to every `context.get` result as `session`. */
export const SessionHintsSchema = z.object({
  compactionRequired: z.boolean(),
  triggerHint: TriggerHintSchema.nullable(),
  /** Why compaction is due, in words; null when it is not. */
  reason: z.string().nullable(),
});

/** The client's verdict on the session: whether to compact, and which trigger fired. */
export type SessionHints = z.infer<typeof SessionHintsSchema>;

/** Splits a `context.get` input into the lifecycle hints and the request body that is sent. */
export function splitLifecycleHints<Input extends LifecycleHints>(
  input: Input,
): { hints: LifecycleHints; request: Omit<Input, keyof LifecycleHints> } {
  const hints: Record<string, unknown> = {};
  const request: Record<string, unknown> = {};
  const hintKeys: ReadonlySet<string> = new Set(LIFECYCLE_HINT_KEYS);
  for (const [key, value] of Object.entries(input)) {
    if (hintKeys.has(key)) hints[key] = value;
    else request[key] = value;
  }
  return { hints: hints as LifecycleHints, request: request as Omit<Input, keyof LifecycleHints> };
}
