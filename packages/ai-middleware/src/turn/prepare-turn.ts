import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { type ContextGetResult, estimateContextTokens, type MemoryClient } from '@memory-service/client';
import { startTimeBudget, type TimeBudget } from '../budget/time-budget.js';
import { MemoryTimeBudgetError } from '../budget/time-budget-error.js';
import { formatMemoryContext } from '../context/format-memory-context.js';
import type { SessionLifecycle, TurnInput } from '../lifecycle/session-lifecycle.js';
import type { MemoryMiddlewareOptions } from '../memory-middleware-options.js';
import { endsWithUserMessage, lastUserText, toQuery } from '../prompt.js';
import type { ErrorReporter } from '../report-error.js';
import { type PreparedTurn, UNPREPARED_TURN } from './turn-record.js';

const EMPTY_CONTEXT = { rules: [], memories: [], skillFiles: [] };

/** What preparing a turn uses. */
export interface TurnPreparation {
  client: MemoryClient;
  options: MemoryMiddlewareOptions;
  maxContextTokens: number;
  timeBudgetMs: number;
  lifecycle: SessionLifecycle | undefined;
  report: ErrorReporter;
}

/**
 * The turn's preparation, each step a function: the query (`extractQuery` or the last user message), `context.get`
 * and the user's session checkpoint side by side, the compaction that may follow, then the system message's text.
 * The whole runs within the time budget: past it (or once the model call is aborted) the turn goes on without
 * memory, the memory calls in flight are aborted through the budget's signal, and an exceeded budget is reported once.
 */
export function createTurnPreparer(
  deps: TurnPreparation,
): (params: LanguageModelV4CallOptions) => Promise<PreparedTurn> {
  const { client, options, lifecycle, report } = deps;

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
    const { limit, strategy, graphDepth, mode, includeRules, includeSkillFiles } = options;
    const summaryHints =
      options.session?.includeSessionSummary === true
        ? { sessionId: lifecycle?.view().sessionId, includeSessionSummary: true }
        : {};
    try {
      const retrieval = { limit, strategy, graphDepth, mode, includeRules, includeSkillFiles, ...summaryHints };
      const input = { ...retrieval, query: query === '' ? undefined : query, scope: options.scope };
      return await budget.track('context.get', client.context.get(input, budget.requestOptions()));
    } catch (error) {
      // An aborted model call is the app's doing, and the budget reports itself once: neither is this call's failure.
      if (!budget.signal.aborted) report('context.get', error);
      return undefined;
    }
  }

  /** The system message's text: the context and the session summary, within `maxContextTokens`. */
  function contextText(context: ContextGetResult | undefined, summary: string | null): string {
    if (context === undefined && summary === null) return '';
    return formatMemoryContext(context ?? EMPTY_CONTEXT, {
      maxContextTokens: deps.maxContextTokens,
      sessionSummary: summary,
    });
  }

  async function prepare(params: LanguageModelV4CallOptions, budget: TimeBudget): Promise<PreparedTurn> {
    const query = await budget.track('extractQuery', queryOf(params));
    const turn: TurnInput = { query, userText: lastUserText(params.prompt), prompt: params.prompt };
    const [context, opened] = await Promise.all([
      fetchContext(query, budget),
      endsWithUserMessage(params.prompt) ? openTurn(turn, budget) : false,
    ]);
    let view = lifecycle?.view();
    if (lifecycle !== undefined && opened) {
      const contextTokens = context === undefined ? 0 : estimateContextTokens(context);
      view = await budget.track('sessions.compact', lifecycle.settleTurn(turn, contextTokens, budget.requestOptions()));
    }
    const summary = view?.summary ?? context?.sessionSummary?.summary ?? null;
    const known = context === undefined ? [] : [...context.rules, ...context.memories];
    return { text: contextText(context, summary), view, known: known.map(({ id, content }) => ({ id, content })) };
  }

  return async (params) => {
    const budget = startTimeBudget(deps.timeBudgetMs, params.abortSignal);
    try {
      const prepared = await Promise.race([prepare(params, budget), budget.ended.then(() => undefined)]);
      if (prepared !== undefined) return prepared;
      if (budget.exceeded()) report('timeBudget', new MemoryTimeBudgetError(deps.timeBudgetMs, budget.pending()));
      return UNPREPARED_TURN;
    } finally {
      budget.stop();
    }
  };
}
