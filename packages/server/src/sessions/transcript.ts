import type { Session, SessionEvent } from '@memory-service/contract';

/** Longest kebab-case stem kept in a slug or key, so slugs stay readable in file names. */
const MAX_STEM_LENGTH = 60;

/** Lowercase ASCII kebab-case (`Fix the Build!` -> `fix-the-build`); empty when nothing usable is left. */
export function kebabCase(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_STEM_LENGTH)
    .replace(/-+$/g, '');
}

/** A snapshot slug: the kebab-cased title (or `session`), a dash and the first 8 characters of the session id. */
export function snapshotSlug(title: string | null, sessionId: string): string {
  const stem = kebabCase(title ?? '') || 'session';
  return `${stem}-${sessionId.slice(0, 8)}`;
}

/** The latest `summary` event's content, or null when the session has none. */
export function latestSummary(events: readonly SessionEvent[]): string | null {
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.kind === 'summary') return event.content;
  }
  return null;
}

function metadataLines(session: Session): string[] {
  const lines = [`- Session: ${session.id}`, `- Status: ${session.status}`];
  if (session.client !== null) lines.push(`- Client: ${session.client}`);
  lines.push(`- Started: ${session.startedAt}`);
  if (session.endedAt !== null) lines.push(`- Ended: ${session.endedAt}`);
  if (session.userId !== null) lines.push(`- User: ${session.userId}`);
  if (session.projectId !== null) lines.push(`- Project: ${session.projectId}`);
  return lines;
}

/**
 * Renders a session as Markdown: a title heading, a metadata list, a `## Summary` section when a summary event
 * exists, then `## Transcript` with every event in order as `### <n>. <role> · <kind>` and its content.
 */
export function renderTranscript(session: Session, events: readonly SessionEvent[]): string {
  const heading = (session.title ?? '').replace(/\s+/g, ' ').trim() || 'Session';
  const parts: string[] = [`# ${heading}`, metadataLines(session).join('\n')];
  const summary = latestSummary(events);
  if (summary !== null) parts.push('## Summary', summary.trim());
  parts.push('## Transcript');
  if (events.length === 0) parts.push('_No events were recorded._');
  events.forEach((event, index) => {
    parts.push(`### ${index + 1}. ${event.role} · ${event.kind}`, event.content.trim() || '_(empty)_');
  });
  return `${parts.join('\n\n')}\n`;
}
