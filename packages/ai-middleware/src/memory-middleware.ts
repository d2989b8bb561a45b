import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { SessionSnapshot } from '@memory-service/contract';
import { createBackgroundTasks } from './background.js';
import { DEFAULT_TIME_BUDGET_MS } from './budget/time-budget.js';
import { createCapture } from './capture/create-capture.js';
import { createSessionLifecycle } from './lifecycle/session-lifecycle.js';
import { DEFAULT_MAX_CONTEXT_TOKENS, type MemoryMiddlewareOptions } from './memory-middleware-options.js';
import { composeMiddlewares } from './middlewares/compose-middlewares.js';
import { contextInjection } from './middlewares/context-injection.js';
import { turnRecording } from './middlewares/turn-recording.js';
import { createErrorReporter } from './report-error.js';
import { resolveClient } from './resolve-client.js';
import { createTurnPreparer } from './turn/prepare-turn.js';
import { createTurnCache } from './turn/turn-cache.js';
import type { TurnRecord } from './turn/turn-record.js';

/** The middleware, plus the session it runs and a way to wait for its background work. */
export interface MemoryMiddleware extends LanguageModelV4Middleware {
  /** The conversation's session (with the `session` option): its id, to resume it in the next request, and `end()`. */
  readonly session: {
    /** The open session's id; it changes when a compaction starts a new session. */
    readonly id: string | undefined;
    /** Waits for pending checkpoints, then ends the session as closed; returns its snapshot (null when none). */
    end(): Promise<SessionSnapshot | null>;
  };
  /** Resolves once the work started after answers so far (output checkpoints, capture) has settled. */
  flush(): Promise<void>;
}

function checkTimeBudget(timeBudgetMs: number): void {
  if (!Number.isFinite(timeBudgetMs) || timeBudgetMs <= 0 || timeBudgetMs > 2_147_483_647) {
    throw new TypeError('timeBudgetMs must be a positive number of milliseconds');
  }
}

/**
 * AI SDK middleware that gives a model the memory service's context. Once per user turn it asks `context.get` with
 * the last user message and puts one system message in front of the prompt (rules, memories, conflicts, skill files,
 * the session summary); the later steps of a tool loop reuse it. With `session`, it runs the session lifecycle from
 * the server's counts, so a middleware made per request behaves like a long-lived one. With `capture`, it stores
 * what the conversation says after each turn. A memory failure never fails the model call, and the memory work before
 * it never takes longer than `timeBudgetMs` (1.5 s by default): past it the call goes ahead without memory.
 *
 * @example
 * ```ts
 * const model = wrapLanguageModel({
 *   model: openai('gpt-4.1-mini'),
 *   middleware: memoryMiddleware({ client: { baseUrl, apiKey }, scope: { userId: 'u1' }, capture: 'turns' }),
 * });
 * ```
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions): MemoryMiddleware {
  const { scope, maxContextTokens = DEFAULT_MAX_CONTEXT_TOKENS, timeBudgetMs = DEFAULT_TIME_BUDGET_MS } = options;
  checkTimeBudget(timeBudgetMs);
  const client = resolveClient(options.client);
  const report = createErrorReporter(options.onError);
  const lifecycle =
    options.session === undefined
      ? undefined
      : createSessionLifecycle({ client, scope, options: options.session, report });
  const capture = createCapture({ client, scope, option: options.capture ?? 'off', onCapture: options.onCapture });
  const background = createBackgroundTasks(options.waitUntil);
  // The turn of each model call the context injection prepared (the same params object reaches the wrappers).
  const turnOfCall = new WeakMap<LanguageModelV4CallOptions, TurnRecord>();
  const prepare = createTurnPreparer({ client, options, maxContextTokens, timeBudgetMs, lifecycle, report });
  const middleware = composeMiddlewares(
    contextInjection({ prepare, turns: createTurnCache<TurnRecord>(), turnOfCall }),
    turnRecording({ turnOfCall, lifecycle, capture, background, report }),
  );
  return {
    ...middleware,
    session: {
      get id() {
        return lifecycle?.view().sessionId;
      },
      end: async () => {
        await background.flush();
        return lifecycle === undefined ? null : lifecycle.end();
      },
    },
    flush: () => background.flush(),
  };
}
