import { MemoryApiError, type MemoryClient, type SessionSnapshot } from '@memory-service/client';

/**
 * What the console can know of a session: the API has no route that reads a session, only its snapshot, which is
 * written when it ends. So a snapshot means ended, and SESSION_SNAPSHOT_NOT_FOUND means the session is visible and
 * still active (SESSION_NOT_FOUND, for an id not visible in the scope, stays an error).
 */
export type SessionState = { kind: 'ended'; snapshot: SessionSnapshot } | { kind: 'active' };

/** Reads a session's snapshot and says which state it is in. */
export async function loadSessionState(
  client: MemoryClient,
  sessionId: string,
  signal: AbortSignal,
): Promise<SessionState> {
  try {
    const { snapshot } = await client.sessions.snapshot(sessionId, {}, { signal });
    return { kind: 'ended', snapshot };
  } catch (error) {
    if (MemoryApiError.isInstance(error) && error.code === 'SESSION_SNAPSHOT_NOT_FOUND') return { kind: 'active' };
    throw error;
  }
}

/** The title a snapshot's transcript starts with (`# Fix the deploy`; the API returns no session title), else null. */
export function transcriptTitle(snapshot: SessionSnapshot): string | null {
  const match = /^# (.+)$/m.exec(snapshot.transcriptMd);
  return match?.[1]?.trim() ?? null;
}
