import type { MemoryClient } from '@memory-service/client';

/** One recorded event of a session: `role · kind` and its content. */
export interface RecordedEvent {
  heading: string;
  content: string;
}

/** Reads a session's events from its snapshot transcript; an active session is closed first to write one. */
export async function recordedEvents(
  client: MemoryClient,
  sessionId: string,
  scope?: { userId?: string },
): Promise<RecordedEvent[]> {
  const snapshot = await client.sessions.snapshot(sessionId, { ...scope }).then(
    (data) => data.snapshot,
    async () => (await client.sessions.end({ sessionId, status: 'closed', scope })).snapshot,
  );
  const transcript = snapshot.transcriptMd.split('## Transcript')[1] ?? '';
  return [...transcript.matchAll(/### \d+\. (\S+ · \S+)\n\n([\s\S]*?)(?=\n\n### \d+\. |\n$)/g)].map((match) => ({
    heading: match[1]!,
    content: match[2]!,
  }));
}
