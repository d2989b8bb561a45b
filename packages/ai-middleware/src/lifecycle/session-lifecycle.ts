import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { LifecycleHints, MemoryClient, SessionHints } from '@memory-service/client';
import type { Scope, SessionSnapshot } from '@memory-service/contract';
import { estimateTokens } from '../context/estimate-tokens.js';
import type { ModelOutput } from '../prompt.js';
import type { ErrorReporter } from '../report-error.js';
import { isMeaningful } from './is-meaningful.js';
import type { SessionOptions } from './session-options.js';
import { type CheckpointEntry, createSessionStore } from './session-store.js';
import { summarizeTranscript } from './summarize-transcript.js';
import { withTokenBudget } from './token-budget.js';

/** A user turn, as the lifecycle needs it. */
export interface TurnInput {
  query: string;
  userText: string;
  prompt: LanguageModelV4Prompt;
}

/**
 * The session lifecycle of one conversation (DESIGN 8): starts a session when needed, gives `context.get` its hints,
 * acts on the verdict (summary checkpoint, end as compacted, new session), checkpoints turns and outputs, and
 * counts turns and tokens. Its calls run one at a time, so checkpoints keep their order.
 */
export function createSessionLifecycle({
  client,
  scope,
  options,
  report,
}: {
  client: MemoryClient;
  scope: Scope | undefined;
  options: SessionOptions;
  report: ErrorReporter;
}) {
  if (options.auto === false && options.sessionId === undefined) {
    throw new TypeError('session needs a sessionId to continue, or auto: true to start one');
  }
  const { checkpoint: mode = 'all', budgetTokens, turnBudget, inactivityThresholdMinutes } = options;
  const store = createSessionStore({
    client,
    scope,
    initialSessionId: options.sessionId,
    title: options.title,
    onEvent: options.onEvent,
  });
  const { state } = store;
  let carriedSummary: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  function serialize<Result>(task: () => Promise<Result>): Promise<Result> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  async function keep(entry: Omit<CheckpointEntry, 'isMeaningful'>): Promise<void> {
    const meaningful = entry.kind === 'message' && isMeaningful(entry.content);
    if (mode === false || (mode === 'meaningful' && !meaningful)) return;
    await store.checkpoint({ ...entry, isMeaningful: meaningful });
  }

  async function compact(verdict: SessionHints): Promise<void> {
    const summary = await (options.summarize ?? summarizeTranscript)(state.transcript, verdict.reason);
    const sessionId = state.sessionId;
    if (sessionId === undefined) return;
    await store.checkpoint({ content: summary, role: 'system', kind: 'summary', tokenCount: 0, isMeaningful: true });
    carriedSummary = (await store.endCompacted()) ?? summary;
    options.onEvent?.({
      type: 'compacted',
      sessionId,
      triggerHint: verdict.triggerHint,
      reason: verdict.reason,
      summary,
    });
  }

  async function isTaskCompleted(turn: TurnInput): Promise<boolean | undefined> {
    if (options.taskCompleted === undefined) return undefined;
    try {
      return await options.taskCompleted({ query: turn.query, prompt: turn.prompt });
    } catch (error) {
      report('taskCompleted', error);
      return undefined;
    }
  }

  return {
    /** Hints for `context.get` on a new user turn; starts a session first when none is open. */
    beginTurn: (turn: TurnInput): Promise<LifecycleHints> =>
      serialize(async () => {
        if (state.sessionId === undefined) await store.start(turn.query);
        const taskCompleted = await isTaskCompleted(turn);
        return {
          sessionId: state.sessionId,
          budgetTokens,
          turnCount: state.turns + 1,
          turnBudget,
          lastActivityAt: state.lastActivityAt,
          inactivityThresholdMinutes,
          taskCompleted,
          includeSessionSummary: options.includeSessionSummary,
        };
      }),
    /** Hints for a later step of a turn (a tool loop): nothing is counted again. */
    stepHints: (): LifecycleHints => ({
      sessionId: state.sessionId,
      includeSessionSummary: options.includeSessionSummary,
    }),
    /**
     * Compacts when the verdict (or the session's token count) says so, then records the user's turn. Returns false
     * when compaction failed (reported; the turn is not recorded); throws when the turn's checkpoint fails.
     */
    settleTurn: (turn: TurnInput, verdict: SessionHints, contextTokens: number): Promise<boolean> =>
      serialize(async () => {
        const userTokens = estimateTokens(turn.userText);
        const decided = withTokenBudget(verdict, {
          budgetTokens,
          sessionTokens: state.tokens + userTokens,
          contextTokens,
        });
        // A session with no turns has nothing to compact (and compacting it again would loop forever).
        if (decided.compactionRequired && state.turns > 0) {
          try {
            await compact(decided);
            await store.start(turn.query);
          } catch (error) {
            report('sessions.compact', error);
            return false;
          }
        }
        // Written first: if the session turns out to be gone, the new one starts counting with this turn.
        await keep({ content: turn.userText, role: 'user', kind: 'message', tokenCount: userTokens });
        state.turns += 1;
        state.lastActivityAt = Date.now();
        store.remember({ role: 'user', text: turn.userText }, userTokens);
        return true;
      }),
    /** Records a model output (text and tool calls); reports failures instead of throwing. */
    recordOutput: (output: ModelOutput): Promise<void> =>
      serialize(async () => {
        const tokens = output.outputTokens ?? estimateTokens(output.text);
        try {
          if (output.text.trim() !== '') {
            await keep({ content: output.text, role: 'assistant', kind: 'message', tokenCount: tokens });
          }
          for (const call of output.toolCalls) {
            const content = `${call.toolName}(${call.input})`;
            await keep({ content, role: 'assistant', kind: 'tool_call', tokenCount: estimateTokens(content) });
          }
        } catch (error) {
          report('sessions.checkpoint', error);
        }
        state.lastActivityAt = Date.now();
        if (output.text.trim() !== '') store.remember({ role: 'assistant', text: output.text }, tokens);
      }),
    /** The summary to inject: the one written at the last compaction, else the open session's last snapshot. */
    sessionSummary: (snapshot: SessionSnapshot | null | undefined): string | null =>
      options.includeSessionSummary === true ? (carriedSummary ?? snapshot?.summary ?? null) : null,
    /** The open session, if any. */
    sessionId: (): string | undefined => state.sessionId,
  };
}

/** The session lifecycle of one conversation. */
export type SessionLifecycle = ReturnType<typeof createSessionLifecycle>;
