import type { SessionEvent } from '@memory-service/client';
import { formatDateTime } from '../../components/format.js';

/** A session's events (sessions/events, oldest first) as a list: turn, role, kind, time and content. */
export function CheckpointList({ checkpoints }: { checkpoints: readonly SessionEvent[] }) {
  if (checkpoints.length === 0) {
    return (
      <section class="stack" aria-labelledby="checkpoints-title">
        <h2 id="checkpoints-title">Events</h2>
        <p class="muted">No checkpoint yet.</p>
      </section>
    );
  }
  return (
    <section class="stack" aria-labelledby="checkpoints-title">
      <h2 id="checkpoints-title">Events ({checkpoints.length})</h2>
      <ol class="checkpoint-list" aria-label="Session events">
        {checkpoints.map((event) => (
          <li key={event.id} class="checkpoint-list__item">
            <p class="checkpoint-list__meta">
              <span>turn {event.turnIndex}</span>
              <span class="badge">{event.role}</span>
              <span>{event.kind.replace('_', ' ')}</span>
              <span>{event.tokenCount} tokens</span>
              <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time>
            </p>
            <p class="pre-line">{event.content}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
