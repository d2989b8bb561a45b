import { randomUUID } from 'node:crypto';
import type { InStatement } from '@libsql/client';
import type {
  CheckpointKind,
  CheckpointRole,
  ResolvedScope,
  Session,
  SessionEndStatus,
  SessionEvent,
  SessionSnapshot,
  SessionStatus,
} from '@memory-service/contract';
import type { Database } from './database.js';
import { lifecycleStatement } from './memory-rows.js';
import { parseJson, textOrNull } from './rows.js';
import { visibleTo } from './scope-filter.js';

/** A `sessions` row as stored. */
export interface SessionRow {
  id: string;
  user_id: string | null;
  project_id: string | null;
  client: string | null;
  status: string;
  title: string | null;
  metadata: string;
  started_at: string;
  last_activity_at: string;
  ended_at: string | null;
}

/** A `session_events` row as stored. */
export interface SessionEventRow {
  id: string;
  session_id: string;
  seq: number;
  role: string;
  kind: string;
  content: string;
  token_count: number;
  turn_index: number;
  is_meaningful: number;
  created_at: string;
}

/** A `session_snapshots` row as stored. */
export interface SnapshotRow {
  id: string;
  session_id: string;
  seq: number;
  slug: string;
  source_trigger: string;
  transcript_md: string;
  message_count: number;
  last_event_seq: number;
  summary: string | null;
  created_at: string;
}

/** Fields of a new checkpoint event; omitted counts are derived (see `SessionStore.appendEvent`). */
export interface NewSessionEvent {
  role: CheckpointRole;
  kind: CheckpointKind;
  content: string;
  tokenCount?: number | undefined;
  turnIndex?: number | undefined;
  isMeaningful: boolean;
}

/** The text of a snapshot, rendered from the events `SessionStore.end` read. */
export interface RenderedSnapshot {
  slug: string;
  transcriptMd: string;
  summary: string | null;
}

/** How often `end` re-reads the events when checkpoints keep landing while it writes. */
const MAX_END_ATTEMPTS = 5;

const SESSION_COLUMNS =
  'id, user_id, project_id, client, status, title, metadata, started_at, last_activity_at, ended_at';
const EVENT_COLUMNS = 'id, session_id, seq, role, kind, content, token_count, turn_index, is_meaningful, created_at';
const SNAPSHOT_COLUMNS =
  'id, session_id, seq, slug, source_trigger, transcript_md, message_count, last_event_seq, summary, created_at';

/** The contract's session record; `scope` echoes the tenant the request resolved and the session's own user and project. */
export function toSession(row: SessionRow, tenantId: string | null): Session {
  const userId = textOrNull(row.user_id);
  const projectId = textOrNull(row.project_id);
  return {
    id: row.id,
    scope: { tenantId, userId, projectId },
    projectId,
    userId,
    client: textOrNull(row.client),
    status: row.status as SessionStatus,
    title: textOrNull(row.title),
    startedAt: row.started_at,
    lastActivityAt: row.last_activity_at,
    endedAt: textOrNull(row.ended_at),
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
  };
}

/** The contract's checkpoint event record. */
export function toSessionEvent(row: SessionEventRow): SessionEvent {
  return {
    id: row.id,
    sessionId: row.session_id,
    role: row.role as CheckpointRole,
    kind: row.kind as CheckpointKind,
    content: row.content,
    tokenCount: Number(row.token_count),
    turnIndex: Number(row.turn_index),
    isMeaningful: Number(row.is_meaningful) === 1,
    createdAt: row.created_at,
  };
}

/** The contract's snapshot record. */
export function toSnapshot(row: SnapshotRow): SessionSnapshot {
  return {
    id: row.id,
    sessionId: row.session_id,
    slug: row.slug,
    sourceTrigger: row.source_trigger as SessionSnapshot['sourceTrigger'],
    transcriptMd: row.transcript_md,
    messageCount: Number(row.message_count),
    summary: textOrNull(row.summary),
    createdAt: row.created_at,
  };
}

/** Sessions, their checkpoint events and snapshots in one tenant database. */
export class SessionStore {
  constructor(readonly database: Database) {}

  /** Starts an active session written with the request's scope. */
  async start(
    fields: { title: string | null; client: string | null; metadata: Record<string, unknown> },
    scope: ResolvedScope,
    now: Date,
  ): Promise<SessionRow> {
    const id = randomUUID();
    const timestamp = now.toISOString();
    await this.database.transaction([
      {
        sql: `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?, NULL)`,
        args: [
          id,
          scope.userId,
          scope.projectId,
          fields.client,
          fields.title,
          JSON.stringify(fields.metadata),
          timestamp,
          timestamp,
        ],
      },
      lifecycleStatement('session.started', id, scope, timestamp, { client: fields.client }),
    ]);
    return this.requireSession(id);
  }

  /** A session visible to the scope (DESIGN 3.2), whatever its status. */
  async findVisible(id: string, scope: ResolvedScope): Promise<SessionRow | undefined> {
    const visible = visibleTo(scope);
    return this.database.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ? AND ${visible.sql}`, [
      id,
      ...visible.args,
    ]);
  }

  /**
   * Appends an event to a session that is still active, in one transaction with the activity bump and the
   * lifecycle event. `seq` is the next per session; `tokenCount` defaults to ceil(chars / 4); `turnIndex`
   * defaults to the number of `user` events so far counting this one, so a user message and the replies
   * after it share a turn and anything before the first user message is turn 0.
   * Returns undefined when the session is no longer active.
   */
  async appendEvent(session: SessionRow, event: NewSessionEvent, now: Date): Promise<SessionEventRow | undefined> {
    const id = randomUUID();
    const timestamp = now.toISOString();
    const tokenCount = event.tokenCount ?? Math.ceil(event.content.length / 4);
    const ownTurn = event.role === 'user' ? 1 : 0;
    const [inserted] = await this.database.transaction([
      {
        sql: `INSERT INTO session_events (${EVENT_COLUMNS})
              SELECT ?, s.id,
                (SELECT coalesce(max(e.seq), 0) + 1 FROM session_events e WHERE e.session_id = s.id),
                ?, ?, ?, ?,
                coalesce(?, (SELECT count(*) FROM session_events e WHERE e.session_id = s.id AND e.role = 'user') + ?),
                ?, ?
              FROM sessions s WHERE s.id = ? AND s.status = 'active'`,
        args: [
          id,
          event.role,
          event.kind,
          event.content,
          tokenCount,
          event.turnIndex ?? null,
          ownTurn,
          event.isMeaningful ? 1 : 0,
          timestamp,
          session.id,
        ],
      },
      {
        sql: `UPDATE sessions SET last_activity_at = ? WHERE id = ? AND EXISTS (SELECT 1 FROM session_events WHERE id = ?)`,
        args: [timestamp, session.id, id],
      },
      {
        sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
              SELECT 'session.checkpoint', session_id, ?, ?, ?, ? FROM session_events WHERE id = ?`,
        args: [
          session.user_id,
          session.project_id,
          JSON.stringify({ kind: event.kind, role: event.role, isMeaningful: event.isMeaningful }),
          timestamp,
          id,
        ],
      },
    ]);
    if (!inserted) return undefined;
    return this.database.get<SessionEventRow>(`SELECT ${EVENT_COLUMNS} FROM session_events WHERE id = ?`, [id]);
  }

  /** A session's events in order, up to and including `lastSeq` when given. */
  async events(sessionId: string, lastSeq?: number): Promise<SessionEventRow[]> {
    return this.database.all<SessionEventRow>(
      `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = ? AND seq <= ? ORDER BY seq`,
      [sessionId, lastSeq ?? Number.MAX_SAFE_INTEGER],
    );
  }

  /**
   * Ends an active session and writes its snapshot of every event in one transaction. `render` turns the events
   * into the snapshot's text; if a checkpoint lands between reading the events and writing, the write is refused
   * and redone, so the snapshot always covers exactly the events before the end. Returns undefined when the
   * session is no longer active (nothing is written then).
   */
  async end(
    session: SessionRow,
    status: SessionEndStatus,
    now: Date,
    render: (events: SessionEventRow[]) => RenderedSnapshot,
  ): Promise<{ session: SessionRow; snapshot: SnapshotRow } | undefined> {
    const timestamp = now.toISOString();
    for (let attempt = 0; attempt < MAX_END_ATTEMPTS; attempt += 1) {
      const events = await this.events(session.id);
      const lastEventSeq = Number(events.at(-1)?.seq ?? 0);
      const snapshotId = randomUUID();
      const [ended] = await this.database.transaction([
        {
          sql: `UPDATE sessions SET status = ?, ended_at = ?, last_activity_at = ?
                WHERE id = ? AND status = 'active'
                  AND (SELECT coalesce(max(seq), 0) FROM session_events WHERE session_id = ?) = ?`,
          args: [status, timestamp, timestamp, session.id, session.id, lastEventSeq],
        },
        this.snapshotStatement(snapshotId, session.id, status, render(events), events.length, lastEventSeq, timestamp),
        {
          sql: `INSERT INTO lifecycle_events (kind, subject_id, user_id, project_id, detail, created_at)
                SELECT 'session.ended', session_id, ?, ?, ?, ? FROM session_snapshots WHERE id = ?`,
          args: [session.user_id, session.project_id, JSON.stringify({ status }), timestamp, snapshotId],
        },
      ]);
      if (ended) {
        const written = await this.snapshot(session.id, snapshotId);
        if (written === undefined) throw new Error('written snapshot not found');
        return { session: await this.requireSession(session.id), snapshot: written };
      }
      if ((await this.requireSession(session.id)).status !== 'active') return undefined;
    }
    throw new Error('session kept receiving checkpoints while it was being ended');
  }

  /** Inserts a snapshot only when the statement before it (the status change) changed a row. */
  private snapshotStatement(
    id: string,
    sessionId: string,
    status: SessionEndStatus,
    rendered: RenderedSnapshot,
    messageCount: number,
    lastEventSeq: number,
    timestamp: string,
  ): InStatement {
    return {
      sql: `INSERT INTO session_snapshots (${SNAPSHOT_COLUMNS})
            SELECT ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM session_snapshots WHERE session_id = ?), ?, ?, ?, ?, ?, ?, ?
            WHERE changes() > 0`,
      args: [
        id,
        sessionId,
        sessionId,
        rendered.slug,
        status === 'compacted' ? 'compacted' : 'end',
        rendered.transcriptMd,
        messageCount,
        lastEventSeq,
        rendered.summary,
        timestamp,
      ],
    };
  }

  /** A snapshot of the session by id, or its latest when `snapshotId` is omitted. */
  async snapshot(sessionId: string, snapshotId?: string): Promise<SnapshotRow | undefined> {
    if (snapshotId !== undefined) {
      return this.database.get<SnapshotRow>(
        `SELECT ${SNAPSHOT_COLUMNS} FROM session_snapshots WHERE session_id = ? AND id = ?`,
        [sessionId, snapshotId],
      );
    }
    return this.database.get<SnapshotRow>(
      `SELECT ${SNAPSHOT_COLUMNS} FROM session_snapshots WHERE session_id = ? ORDER BY seq DESC LIMIT 1`,
      [sessionId],
    );
  }

  private async requireSession(id: string): Promise<SessionRow> {
    const row = await this.database.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`, [id]);
    if (row === undefined) throw new Error('session row not found after write');
    return row;
  }
}
