import { MemoryApiError, type MemoryClient, type RequestOptions } from '@memory-service/client';
import {
  type CheckpointKind,
  type CheckpointRole,
  LIMITS,
  type Scope,
  type SessionSnapshot,
  type SessionTotals,
} from '@memory-service/contract';
import type { SessionEvent } from './session-options.js';

// The session was ended or removed behind the middleware's back (e.g. by the endSession tool): start another.
const SESSION_GONE_CODES: ReadonlySet<string> = new Set(['SESSION_NOT_ACTIVE', 'SESSION_NOT_FOUND']);

/** One checkpoint to write. */
export interface CheckpointEntry {
  content: string;
  role: CheckpointRole;
  kind: CheckpointKind;
  tokenCount: number;
  isMeaningful: boolean;
}

/**
 * The open session as the server last described it. A middleware made for one request (a serverless route) learns
 * all of it from the server's answer to the turn's checkpoint, so nothing here depends on the process living long.
 */
export interface SessionState {
  sessionId: string | undefined;
  /** User turns in the session, counting the last one written. */
  turns: number;
  /** Tokens of the session's events. */
  tokens: number;
  /** The session's last activity before the last checkpoint (epoch ms), if known. */
  previousActivityAt: number | undefined;
  /** The summary the session carries from a compaction, if any. */
  summary: string | null;
}

/**
 * The session calls of the lifecycle: start, checkpoint (starting a new session if the old one is gone), end. Each
 * takes the client's request options: the turn's time budget before the model call, none after the answer.
 */
export function createSessionStore(options: {
  client: MemoryClient;
  scope: Scope | undefined;
  initialSessionId: string | undefined;
  title: string | undefined;
  onEvent: ((event: SessionEvent) => void) | undefined;
}) {
  const { client, scope } = options;
  const state: SessionState = {
    sessionId: options.initialSessionId,
    turns: 0,
    tokens: 0,
    previousActivityAt: undefined,
    summary: null,
  };

  function track(sessionId: string, totals: SessionTotals): void {
    const previous = Date.parse(totals.previousActivityAt);
    Object.assign(state, {
      sessionId,
      turns: totals.turnCount,
      tokens: totals.tokenCount,
      previousActivityAt: Number.isFinite(previous) ? previous : undefined,
      summary: totals.summary,
    });
  }

  async function start(firstText: string, request?: RequestOptions): Promise<string> {
    const title = (options.title ?? firstText).trim().slice(0, LIMITS.sessionTitle.max) || 'Conversation';
    const started = await client.sessions.start({ title, client: '@memory-service/ai-middleware', scope }, request);
    Object.assign(state, {
      sessionId: started.sessionId,
      turns: 0,
      tokens: 0,
      previousActivityAt: undefined,
      summary: null,
    });
    options.onEvent?.({ type: 'started', sessionId: started.sessionId });
    return started.sessionId;
  }

  async function write(sessionId: string, entry: CheckpointEntry, request?: RequestOptions): Promise<void> {
    const content = entry.content.slice(0, LIMITS.checkpointContent.max);
    const written = await client.sessions.checkpoint({ ...entry, content, sessionId, scope }, request);
    track(written.sessionId, written.totals);
  }

  return {
    state,
    start,
    /** Checkpoints into the open session; when it is gone, starts a new one and writes there. */
    async checkpoint(entry: CheckpointEntry, request?: RequestOptions): Promise<void> {
      const sessionId = state.sessionId ?? (await start(entry.content, request));
      try {
        await write(sessionId, entry, request);
      } catch (error) {
        if (!MemoryApiError.isInstance(error) || !SESSION_GONE_CODES.has(error.code)) throw error;
        await write(await start(entry.content, request), entry, request);
      }
    },
    /** Ends the open session (compacted or closed) and returns its snapshot. */
    async end(status: 'closed' | 'compacted', request?: RequestOptions): Promise<SessionSnapshot | null> {
      if (state.sessionId === undefined) return null;
      const ended = await client.sessions.end({ sessionId: state.sessionId, status, scope }, request);
      Object.assign(state, { sessionId: undefined, turns: 0, tokens: 0, previousActivityAt: undefined, summary: null });
      return ended.snapshot;
    },
  };
}

/** The session calls of the lifecycle. */
export type SessionStore = ReturnType<typeof createSessionStore>;
