import type { LanguageModelV4CallOptions, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { type ContextGetResult, estimateContextTokens } from '@memory-service/client';
import type { SessionSnapshot } from '@memory-service/contract';
import { createBackgroundTasks } from './background.js';
import { DEFAULT_TIME_BUDGET_MS, startTimeBudget, type TimeBudget } from './budget/time-budget.js';
import { MemoryTimeBudgetError } from './budget/time-budget-error.js';
import type { CapturedTurn } from './capture/capture-options.js';
import { createCapture } from './capture/create-capture.js';
import { isMemoryServiceCall } from './capture/internal-call.js';
import { formatMemoryContext } from './context/format-memory-context.js';
import { captureStreamOutput } from './lifecycle/capture-stream-output.js';
import { createSessionLifecycle, type SessionView, type TurnInput } from './lifecycle/session-lifecycle.js';
import { withoutSummarizedMessages } from './lifecycle/session-prompt.js';
import { DEFAULT_MAX_CONTEXT_TOKENS, type MemoryMiddlewareOptions } from './memory-middleware-options.js';
import {
  endsWithUserMessage,
  lastUserText,
  type ModelOutput,
  outputOfContent,
  previousAssistantText,
  toQuery,
  withSystemMessage,
} from './prompt.js';
import { createErrorReporter } from './report-error.js';
import { resolveClient } from './resolve-client.js';
import { createTurnCache } from './turn/turn-cache.js';
import { turnKeyOf } from './turn/turn-key.js';

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

/** One user turn's prepared context, shared by the steps of its tool loop. */
interface PreparedTurn {
  text: string;
  /** The session after the turn's checkpoint (and compaction, if one ran). */
  view: SessionView | undefined;
  known: CapturedTurn['known'];
}

/** A user turn the middleware is serving. */
interface TurnRecord {
  prepared: Promise<PreparedTurn>;
  /** The turn's user message (empty when the prompt has none: nothing to capture). */
  userText: string;
  /** The assistant's reply that the user message answers, from the prompt's history. */
  previousAnswer: string;
  /** The tools the model called in the turn's steps so far. */
  toolCalls: ModelOutput['toolCalls'];
  /** Whether a step has given the turn's final answer (a step that did not end in tool calls). */
  answered: boolean;
  captured: boolean;
}

const EMPTY_CONTEXT = { rules: [], memories: [], skillFiles: [] };

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
  const { limit, strategy, graphDepth, mode, includeRules, includeSkillFiles } = options;
  const client = resolveClient(options.client);
  const report = createErrorReporter(options.onError);
  const lifecycle =
    options.session === undefined
      ? undefined
      : createSessionLifecycle({ client, scope, options: options.session, report });
  const capture = createCapture({ client, scope, option: options.capture ?? 'off', onCapture: options.onCapture });
  const background = createBackgroundTasks(options.waitUntil);
  const turns = createTurnCache<TurnRecord>();
  // The turn of each model call the middleware prepared (the same params object reaches wrapGenerate/wrapStream).
  const turnOfCall = new WeakMap<LanguageModelV4CallOptions, TurnRecord>();

  async function queryOf(params: LanguageModelV4CallOptions): Promise<string> {
    if (options.extractQuery === undefined) return toQuery(lastUserText(params.prompt));
    try {
      return toQuery((await options.extractQuery(params.prompt)) ?? '');
    } catch (error) {
      report('extractQuery', error);
      return toQuery(lastUserText(params.prompt));
    }
  }

  /** Opens the turn in the session; false (reported) when the session could not be started or written. */
  async function openTurn(turn: TurnInput, budget: TimeBudget): Promise<boolean> {
    if (lifecycle === undefined) return false;
    const operation = lifecycle.view().sessionId === undefined ? 'sessions.start' : 'sessions.checkpoint';
    try {
      await budget.track(operation, lifecycle.openTurn(turn, budget.requestOptions()));
      return true;
    } catch (error) {
      // Cut off by the budget (reported once, as `timeBudget`) or by the app's abort: not a failure of its own.
      if (!budget.signal.aborted) report(operation, error);
      return false;
    }
  }

  async function fetchContext(query: string, budget: TimeBudget): Promise<ContextGetResult | undefined> {
    const summaryHints =
      options.session?.includeSessionSummary === true
        ? { sessionId: lifecycle?.view().sessionId, includeSessionSummary: true }
        : {};
    try {
      const retrieval = { limit, strategy, graphDepth, mode, includeRules, includeSkillFiles, ...summaryHints };
      const input = { ...retrieval, query: query === '' ? undefined : query, scope };
      return await budget.track('context.get', client.context.get(input, budget.requestOptions()));
    } catch (error) {
      // An aborted model call is the app's doing, and the budget reports itself once: neither is this call's failure.
      if (!budget.signal.aborted) report('context.get', error);
      return undefined;
    }
  }

  /** The turn's context and session work: `context.get` and the user's checkpoint run side by side. */
  async function prepare(params: LanguageModelV4CallOptions, budget: TimeBudget): Promise<PreparedTurn> {
    const query = await budget.track('extractQuery', queryOf(params));
    const userText = lastUserText(params.prompt);
    const turn: TurnInput = { query, userText, prompt: params.prompt };
    const newTurn = endsWithUserMessage(params.prompt);
    const [context, opened] = await Promise.all([
      fetchContext(query, budget),
      newTurn ? openTurn(turn, budget) : false,
    ]);
    let view = lifecycle?.view();
    if (lifecycle !== undefined && opened) {
      const contextTokens = context === undefined ? 0 : estimateContextTokens(context);
      view = await budget.track('sessions.compact', lifecycle.settleTurn(turn, contextTokens, budget.requestOptions()));
    }
    const summary = view?.summary ?? context?.sessionSummary?.summary ?? null;
    const text =
      context === undefined && summary === null
        ? ''
        : formatMemoryContext(context ?? EMPTY_CONTEXT, { maxContextTokens, sessionSummary: summary });
    const known = context === undefined ? [] : [...context.rules, ...context.memories];
    return { text, view, known: known.map(({ id, content }) => ({ id, content })) };
  }

  /**
   * `prepare` within the time budget: past it (or once the model call is aborted) the turn goes on without memory,
   * the memory calls in flight are aborted through the budget's signal, and an exceeded budget is reported once.
   */
  async function prepareWithinBudget(params: LanguageModelV4CallOptions): Promise<PreparedTurn> {
    const budget = startTimeBudget(timeBudgetMs, params.abortSignal);
    try {
      const prepared = await Promise.race([prepare(params, budget), budget.ended.then(() => undefined)]);
      if (prepared !== undefined) return prepared;
      if (budget.exceeded()) report('timeBudget', new MemoryTimeBudgetError(timeBudgetMs, budget.pending()));
      return { text: '', view: undefined, known: [] };
    } finally {
      budget.stop();
    }
  }

  async function inject(params: LanguageModelV4CallOptions): Promise<LanguageModelV4CallOptions> {
    if (isMemoryServiceCall(params)) return params;
    const key = turnKeyOf(params.prompt);
    const create = (): TurnRecord => ({
      prepared: prepareWithinBudget(params),
      userText: lastUserText(params.prompt),
      previousAnswer: previousAssistantText(params.prompt),
      toolCalls: [],
      answered: false,
      captured: false,
    });
    // A prompt ending with the user's message after the turn with the same words was answered is a new turn (an app
    // that sends only the last message, "yes" twice); before that, it is the same turn again (a provider retry).
    const newTurn = endsWithUserMessage(params.prompt);
    const record =
      key === undefined ? create() : turns.getOrCreate(key, create, (cached) => !(newTurn && cached.answered));
    const prepared = await record.prepared;
    // A turn prepared under an aborted call is prepared again if the app retries it.
    if (key !== undefined && params.abortSignal?.aborted === true) turns.delete(key);
    let prompt = params.prompt;
    // A compacted session's summary stands for the messages before the session's own turns.
    if (prepared.view?.summary != null) prompt = withoutSummarizedMessages(prompt, prepared.view.turns);
    if (prepared.text !== '') prompt = withSystemMessage(prompt, prepared.text);
    const injected = { ...params, prompt };
    turnOfCall.set(injected, record);
    return injected;
  }

  /** After a model call: its output is checkpointed, and the turn captured once its last step has answered. */
  function afterCall(record: TurnRecord | undefined, output: ModelOutput): void {
    if (record === undefined) return;
    record.toolCalls.push(...output.toolCalls);
    if (output.finishReason !== 'tool-calls') record.answered = true;
    const captureNow =
      capture !== undefined && output.finishReason !== 'tool-calls' && !record.captured && record.userText !== '';
    if (captureNow) record.captured = true;
    if (lifecycle === undefined && !captureNow) return;
    background.run(async () => {
      if (lifecycle !== undefined) await lifecycle.recordOutput(output);
      if (!captureNow || capture === undefined) return;
      try {
        const prepared = await record.prepared;
        await capture({
          userText: record.userText,
          answer: output.text,
          previousAnswer: record.previousAnswer,
          known: prepared.known,
          toolCalls: record.toolCalls,
          sessionId: lifecycle?.view().sessionId,
        });
      } catch (error) {
        report('capture', error);
      }
    });
  }

  return {
    specificationVersion: 'v4',
    transformParams: ({ params }) => inject(params),
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      afterCall(
        turnOfCall.get(params),
        outputOfContent(result.content, result.usage.outputTokens.total, result.finishReason.unified),
      );
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const result = await doStream();
      const record = turnOfCall.get(params);
      if (record === undefined || (lifecycle === undefined && capture === undefined)) return result;
      return {
        ...result,
        stream: result.stream.pipeThrough(captureStreamOutput((output) => afterCall(record, output))),
      };
    },
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
