import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { TriggerHint } from '@memory-service/contract';

/** One entry of what a compaction summarizes: the summary the session carried, then its user and assistant texts. */
export interface TranscriptEntry {
  role: 'summary' | 'user' | 'assistant';
  text: string;
}

/** What the lifecycle did, for logging or UI. */
export type SessionEvent =
  | { type: 'started'; sessionId: string }
  | { type: 'compacted'; sessionId: string; triggerHint: TriggerHint | null; reason: string | null; summary: string };

/** The `session` option of `memoryMiddleware`: session lifecycle (docs/architecture.md#session-lifecycle). */
export interface SessionOptions {
  /** An open session to continue; without it a session is started on the first turn. */
  sessionId?: string;
  /** Start a session when none is open (the default); `auto: false` needs a `sessionId`. After a compaction a new session is always started. */
  auto?: boolean;
  /** Token budget of the session (conversation plus injected context); above it the session is compacted. */
  budgetTokens?: number;
  /** Turns per session; past it the session is compacted. */
  turnBudget?: number;
  /** A turn after this many idle minutes compacts the session and starts a new one. */
  inactivityThresholdMinutes?: number;
  /**
   * Also inject the summary of a session given by `sessionId` that was already ended (its last snapshot). A summary
   * the session carries from a compaction is always injected, in place of the messages it stands for.
   */
  includeSessionSummary?: boolean;
  /** Which turns to checkpoint: every one (`all`, default), only substantive ones (`meaningful`), or none. */
  checkpoint?: 'all' | 'meaningful' | false;
  /** Says whether the task is done (the `semantic` trigger); called once per user turn. */
  taskCompleted?: (input: { query: string; prompt: LanguageModelV4Prompt }) => boolean | PromiseLike<boolean>;
  /**
   * Writes the summary checkpoint at compaction from the session's messages (read from the prompt) and the summary
   * it already carried; the default lists them, clipped, without calling a model.
   */
  summarize?: (transcript: readonly TranscriptEntry[], reason: string | null) => string | PromiseLike<string>;
  /** Title of the sessions the middleware starts; defaults to the first query. */
  title?: string;
  /** Told when a session starts or is compacted. */
  onEvent?: (event: SessionEvent) => void;
}
