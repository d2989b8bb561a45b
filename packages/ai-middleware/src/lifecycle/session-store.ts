import { MemoryApiError, type MemoryClient } from '@memory-service/client';
import { type CheckpointKind, type CheckpointRole, LIMITS, type Scope } from '@memory-service/contract';
import type { SessionEvent, TranscriptEntry } from './session-options.js';

// The session was ended or removed behind the middleware's back (e.g. by the endSession tool): start another.
const SESSION_GONE_CODES: ReadonlySet<string> = new Set(['SESSION_NOT_ACTIVE', 'SESSION_NOT_FOUND']);
const MAX_TRANSCRIPT_ENTRIES = 200;

/** One checkpoint to write. */
export interface CheckpointEntry {
  content: string;
  role: CheckpointRole;
  kind: CheckpointKind;
  tokenCount: number;
  isMeaningful: boolean;
}

/** The open session and what the middleware counted in it. */
export interface SessionState {
  sessionId: string | undefined;
  turns: number;
  tokens: number;
  lastActivityAt: number | undefined;
  transcript: TranscriptEntry[];
}

/** The session calls of the lifecycle: start, checkpoint (starting a new session if the old one is gone), end. */
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
    lastActivityAt: undefined,
    transcript: [],
  };

  async function start(firstQuery: string): Promise<string> {
    const title = (options.title ?? firstQuery).trim().slice(0, LIMITS.sessionTitle.max) || 'Conversation';
    const started = await client.sessions.start({ title, client: '@memory-service/ai-middleware', scope });
    Object.assign(state, {
      sessionId: started.sessionId,
      turns: 0,
      tokens: 0,
      lastActivityAt: undefined,
      transcript: [],
    });
    options.onEvent?.({ type: 'started', sessionId: started.sessionId });
    return started.sessionId;
  }

  async function write(sessionId: string, entry: CheckpointEntry): Promise<void> {
    const content = entry.content.slice(0, LIMITS.checkpointContent.max);
    await client.sessions.checkpoint({ ...entry, content, sessionId, scope });
  }

  return {
    state,
    start,
    /** Checkpoints into the open session; when it is gone, starts a new one and writes there. */
    async checkpoint(entry: CheckpointEntry): Promise<void> {
      const sessionId = state.sessionId ?? (await start(entry.content));
      try {
        await write(sessionId, entry);
      } catch (error) {
        if (!MemoryApiError.isInstance(error) || !SESSION_GONE_CODES.has(error.code)) throw error;
        await write(await start(entry.content), entry);
      }
    },
    /** Ends the open session as compacted and returns its snapshot's summary. */
    async endCompacted(): Promise<string | null> {
      if (state.sessionId === undefined) return null;
      const ended = await client.sessions.end({ sessionId: state.sessionId, status: 'compacted', scope });
      state.sessionId = undefined;
      return ended.snapshot.summary;
    },
    /** Notes one message of the conversation (kept in memory for the compaction summary). */
    remember(entry: TranscriptEntry, tokens: number): void {
      state.transcript.push(entry);
      if (state.transcript.length > MAX_TRANSCRIPT_ENTRIES) state.transcript.shift();
      state.tokens += tokens;
    },
  };
}

/** The session calls of the lifecycle. */
export type SessionStore = ReturnType<typeof createSessionStore>;
