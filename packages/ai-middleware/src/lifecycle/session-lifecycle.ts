import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { computeSessionHints, type MemoryClient, type RequestOptions, type SessionHints } from '@memory-service/client';
import type { Scope, SessionSnapshot } from '@memory-service/contract';
import { estimateTokens } from '../context/estimate-tokens.js';
import type { ModelOutput } from '../prompt.js';
import type { ErrorReporter } from '../report-error.js';
import { isMeaningful } from './is-meaningful.js';
import type { SessionOptions } from './session-options.js';
import { sessionTranscript } from './session-prompt.js';
import { type CheckpointEntry, createSessionStore } from './session-store.js';
import { summarizeTranscript } from './summarize-transcript.js';
import { withTokenBudget } from './token-budget.js';

/** A user turn, as the lifecycle needs it. */
export interface TurnInput {
  query: string;
  userText: string;
  prompt: LanguageModelV4Prompt;
}

/** What a turn's prompt needs from the session: the summary it carries and how many of its turns the prompt keeps. */
export interface SessionView {
  sessionId: string | undefined;
  summary: string | null;
  turns: number;
}

const NO_COMPACTION: SessionHints = { compactionRequired: false, triggerHint: null, reason: null };

/**
 * The session lifecycle of one conversation. Every turn checkpoints the user's message (beside the turn's
 * `context.get`, not after it); the server's answer gives the session's turn and token counts, its last activity
 * and the summary it carries, so a middleware made per request judges compaction exactly as a long-lived one does.
 * When a budget is crossed, the session's messages are summarised, the session is ended as compacted, and a new one
 * starts carrying the summary and the current turn. Calls run one at a time, so checkpoints keep their order.
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
  // The last activity this process saw, for turns that are not written (checkpoint: 'meaningful' or false).
  let lastLocalActivity: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  function serialize<Result>(task: () => Promise<Result>): Promise<Result> {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  }

  async function keep(entry: Omit<CheckpointEntry, 'isMeaningful'>, request?: RequestOptions): Promise<boolean> {
    const meaningful = entry.kind === 'message' && isMeaningful(entry.content);
    if (mode === false || (mode === 'meaningful' && !meaningful)) return false;
    await store.checkpoint({ ...entry, isMeaningful: meaningful }, request);
    return true;
  }

  /** Writes the user's message, or counts it here when the checkpoint mode keeps it out of the session. */
  async function recordUserTurn(turn: TurnInput, request: RequestOptions | undefined): Promise<void> {
    const tokenCount = estimateTokens(turn.userText);
    const written = await keep({ content: turn.userText, role: 'user', kind: 'message', tokenCount }, request);
    if (!written) {
      state.turns += 1;
      state.tokens += tokenCount;
      state.previousActivityAt = lastLocalActivity;
    }
    lastLocalActivity = Date.now();
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

  async function verdictFor(turn: TurnInput, contextTokens: number): Promise<SessionHints> {
    const byTokens = withTokenBudget(NO_COMPACTION, { budgetTokens, sessionTokens: state.tokens, contextTokens });
    if (byTokens.compactionRequired) return byTokens;
    const hints = {
      turnCount: state.turns,
      turnBudget,
      lastActivityAt: state.previousActivityAt,
      inactivityThresholdMinutes,
      taskCompleted: await isTaskCompleted(turn),
    };
    return computeSessionHints(hints, 0, Date.now());
  }

  async function compact(turn: TurnInput, verdict: SessionHints, request: RequestOptions | undefined): Promise<void> {
    const sessionId = state.sessionId;
    if (sessionId === undefined) return;
    const transcript = sessionTranscript(turn.prompt, state.turns, state.summary);
    const summary = await (options.summarize ?? summarizeTranscript)(transcript, verdict.reason);
    const entry = { content: summary, role: 'system', kind: 'summary', tokenCount: 0, isMeaningful: true } as const;
    await store.checkpoint(entry, request);
    await store.end('compacted', request);
    options.onEvent?.({
      type: 'compacted',
      sessionId,
      triggerHint: verdict.triggerHint,
      reason: verdict.reason,
      summary,
    });
    await store.start(turn.query, request);
    // The new session carries the summary (a later request reads it back from any checkpoint's answer) and the turn.
    await store.checkpoint(entry, request);
    await recordUserTurn(turn, request);
  }

  function view(): SessionView {
    return { sessionId: state.sessionId, summary: state.summary, turns: state.turns };
  }

  return {
    /**
     * Starts a session when none is open, then writes the user's message. Throws when either call fails. `request`
     * carries the turn's time budget (its signal and one attempt per call).
     */
    openTurn: (turn: TurnInput, request?: RequestOptions): Promise<void> =>
      serialize(async () => {
        if (state.sessionId === undefined) await store.start(turn.query, request);
        await recordUserTurn(turn, request);
      }),
    /**
     * Compacts when a budget is crossed (the session's tokens plus the injected context, its turns, inactivity, or
     * `taskCompleted`) and there is an earlier turn to summarise. A failed compaction is reported (unless `request`'s
     * signal aborted it: the time budget reports that); the turn goes on.
     */
    settleTurn: (turn: TurnInput, contextTokens: number, request?: RequestOptions): Promise<SessionView> =>
      serialize(async () => {
        const verdict = await verdictFor(turn, contextTokens);
        if (verdict.compactionRequired && state.turns > 1) {
          try {
            await compact(turn, verdict, request);
          } catch (error) {
            if (request?.signal?.aborted !== true) report('sessions.compact', error);
          }
        }
        return view();
      }),
    /** Records a model output (text and tool calls); reports failures instead of throwing. */
    recordOutput: (output: ModelOutput): Promise<void> =>
      serialize(async () => {
        if (state.sessionId === undefined) return;
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
        lastLocalActivity = Date.now();
      }),
    /** The session as the prompt needs it, without calling the server. */
    view,
    /** Ends the open session as closed and returns its snapshot (null when none is open). */
    end: (): Promise<SessionSnapshot | null> => serialize(() => store.end('closed')),
  };
}

/** The session lifecycle of one conversation. */
export type SessionLifecycle = ReturnType<typeof createSessionLifecycle>;
