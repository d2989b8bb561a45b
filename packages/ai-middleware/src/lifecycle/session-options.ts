import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { TriggerHint } from '@memory-service/contract';

/** One entry of the conversation the middleware saw in the open session. */
export interface TranscriptEntry {
  role: 'user' | 'assistant';
  text: string;
}

/** What the lifecycle did, for logging or UI. */
export type SessionEvent =
  | { type: 'started'; sessionId: string }
  | { type: 'compacted'; sessionId: string; triggerHint: TriggerHint | null; reason: string | null; summary: string };

/** The `session` option of `memoryMiddleware`: session lifecycle (DESIGN 8). */
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
  /** Add the last snapshot's summary to the injected context. */
  includeSessionSummary?: boolean;
  /** Which turns to checkpoint: every one (`all`, default), only substantive ones (`meaningful`), or none. */
  checkpoint?: 'all' | 'meaningful' | false;
  /** Says whether the task is done (the `semantic` trigger); called once per user turn. */
  taskCompleted?: (input: { query: string; prompt: LanguageModelV4Prompt }) => boolean | PromiseLike<boolean>;
  /** Writes the summary checkpoint at compaction; the default lists the session's turns, clipped. */
  summarize?: (transcript: readonly TranscriptEntry[], reason: string | null) => string | PromiseLike<string>;
  /** Title of the sessions the middleware starts; defaults to the first query. */
  title?: string;
  /** Told when a session starts or is compacted. */
  onEvent?: (event: SessionEvent) => void;
}
