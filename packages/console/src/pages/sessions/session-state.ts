import {
  MemoryApiError,
  type MemoryClient,
  type OperationData,
  type SessionEvent,
  type SessionSnapshot,
} from '@memory-service/client';
import { LIMITS } from '@memory-service/contract';

type ListedSession = OperationData<'sessions.list'>['sessions'][number];

/**
 * What the console reads of a session: the listed session (status, title, totals) when it is among the newest
 * listed, its events (sessions/events, whatever its status) and, once ended, its latest snapshot.
 */
export interface SessionState {
  kind: 'active' | 'ended';
  session: ListedSession | null;
  events: SessionEvent[];
  snapshot: SessionSnapshot | null;
}

/** Reads a session's record, events and (when ended) snapshot; SESSION_NOT_FOUND for an id not visible in the scope. */
export async function loadSessionState(
  client: MemoryClient,
  sessionId: string,
  signal: AbortSignal,
): Promise<SessionState> {
  const [{ events }, { sessions }] = await Promise.all([
    client.sessions.events({ sessionId, limit: LIMITS.sessionEventsLimit.max }, { signal }),
    client.sessions.list({ limit: LIMITS.sessionListLimit.max }, { signal }),
  ]);
  const session = sessions.find((listed) => listed.id === sessionId) ?? null;
  if (session?.status === 'active') return { kind: 'active', session, events, snapshot: null };
  try {
    const { snapshot } = await client.sessions.snapshot(sessionId, {}, { signal });
    return { kind: 'ended', session, events, snapshot };
  } catch (error) {
    // Only for a session older than the newest listed: no snapshot yet means it is still active.
    if (MemoryApiError.isInstance(error) && error.code === 'SESSION_SNAPSHOT_NOT_FOUND') {
      return { kind: 'active', session, events, snapshot: null };
    }
    throw error;
  }
}

/** The title a snapshot's transcript starts with (`# Fix the deploy`), else null. */
export function transcriptTitle(snapshot: SessionSnapshot): string | null {
  const match = /^# (.+)$/m.exec(snapshot.transcriptMd);
  return match?.[1]?.trim() ?? null;
}
