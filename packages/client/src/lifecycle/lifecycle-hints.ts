import { type LifecycleHints, LifecycleHintsSchema } from '@memory-service/contract';

export {
  type LifecycleHints,
  LifecycleHintsSchema,
  type SessionHints,
  SessionHintsSchema,
} from '@memory-service/contract';

/** The names of the lifecycle hints, stripped from what `context.get` sends. */
export const LIFECYCLE_HINT_KEYS = LifecycleHintsSchema.keyof().options;

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
