import type { OperationData, Scope, SessionSnapshot } from '@memory-service/contract';
import { normalizeStrategyInput } from '../deprecation.js';
import { MemoryApiError } from '../errors.js';
import { type LifecycleHints, type SessionHints, splitLifecycleHints } from '../lifecycle/lifecycle-hints.js';
import { computeSessionHints } from '../lifecycle/session-hints.js';
import { estimateContextTokens } from '../lifecycle/token-estimate.js';
import type { RequestOptions } from '../request-options.js';
import type { CallInput, OperationCaller } from '../types.js';

/** What `context.get` takes: the contract's request plus the lifecycle hints (read by the client, never sent). */
export type ContextGetInput = CallInput<'context.get'> & LifecycleHints;

/** What `context.get` returns: the context bundle, the client's session verdict and, when asked, the latest snapshot. */
export type ContextGetResult = OperationData<'context.get'> & {
  session: SessionHints;
  /** Present when `includeSessionSummary` was set: the session's latest snapshot, or null when it has none. */
  sessionSummary?: SessionSnapshot | null;
};

// A session without a snapshot yet is normal early on: the summary is simply absent.
const NO_SNAPSHOT_CODES: ReadonlySet<string> = new Set(['SESSION_SNAPSHOT_NOT_FOUND', 'SESSION_NOT_FOUND']);

async function latestSnapshot(
  call: OperationCaller,
  sessionId: string | undefined,
  scope: Scope | undefined,
  options: RequestOptions | undefined,
): Promise<SessionSnapshot | null> {
  if (sessionId === undefined) return null;
  try {
    const data = await call('sessions.snapshot', scope === undefined ? { sessionId } : { sessionId, scope }, options);
    return data.snapshot;
  } catch (error) {
    if (MemoryApiError.isInstance(error) && NO_SNAPSHOT_CODES.has(error.code)) return null;
    throw error;
  }
}

/** `client.context`: the prompt-time context bundle with client-side session lifecycle hints (docs/architecture.md#session-lifecycle). */
export function createContextResource(call: OperationCaller, now: () => number = Date.now) {
  return {
    /**
     * Returns rules, memories, skill files and the retrieval trace for a query, plus `session`
     * (`compactionRequired`, `triggerHint`, `reason`) computed from the lifecycle hints. With `includeSessionSummary`
     * it makes two calls (the context and the snapshot); `options` apply to both.
     */
    async get(input: ContextGetInput = {}, options?: RequestOptions): Promise<ContextGetResult> {
      const { hints, request } = splitLifecycleHints(input);
      const summaryWanted = hints.includeSessionSummary === true;
      const [data, sessionSummary] = await Promise.all([
        call('context.get', normalizeStrategyInput(request), options),
        summaryWanted ? latestSnapshot(call, hints.sessionId, request.scope, options) : null,
      ]);
      const session = computeSessionHints(hints, estimateContextTokens(data), now());
      return summaryWanted ? { ...data, session, sessionSummary } : { ...data, session };
    },
  };
}

/** The `client.context` resource. */
export type ContextResource = ReturnType<typeof createContextResource>;
