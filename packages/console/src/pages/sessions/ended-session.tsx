import type { SessionEvent, SessionSnapshot } from '@memory-service/client';
import { StatGrid, timeStat } from '../../components/stat-grid.js';
import { CheckpointList } from './checkpoint-list.js';
import { PromoteForm } from './promote-form.js';

/** The status a snapshot's trigger implies: one is written when a session is closed or compacted. */
export function statusOfSnapshot(snapshot: SessionSnapshot): 'closed' | 'compacted' {
  return snapshot.sourceTrigger === 'compacted' ? 'compacted' : 'closed';
}

/** An ended session: its latest snapshot's figures, summary and transcript, its events, and the promotion. */
export function EndedSession({
  sessionId,
  snapshot,
  events,
}: {
  sessionId: string;
  snapshot: SessionSnapshot;
  events: readonly SessionEvent[];
}) {
  const status = statusOfSnapshot(snapshot);
  return (
    <div class="stack">
      <StatGrid
        label="Snapshot"
        stats={[
          { name: 'Status', value: <span class={`status status--${status}`}>{status}</span> },
          { name: 'Messages', value: snapshot.messageCount },
          { name: 'Snapshot', value: <code>{snapshot.slug}</code> },
          timeStat('Written', snapshot.createdAt),
        ]}
      />
      {snapshot.summary === null ? null : (
        <section class="panel stack" aria-labelledby="session-summary-title">
          <h2 id="session-summary-title">Summary</h2>
          <p class="pre-line">{snapshot.summary}</p>
        </section>
      )}
      <section class="panel stack" aria-labelledby="session-transcript-title">
        <h2 id="session-transcript-title">Transcript</h2>
        <p class="muted small">
          The snapshot's Markdown as the server wrote it: every checkpoint in order, with its role and kind.
        </p>
        <pre class="transcript">{snapshot.transcriptMd}</pre>
      </section>
      <CheckpointList checkpoints={events} />
      <PromoteForm sessionId={sessionId} snapshot={snapshot} />
    </div>
  );
}
