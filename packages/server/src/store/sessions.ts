import { randomUUID } from 'node:crypto';
import type { InStatement } from '@libsql/client';
import type {
  CheckpointKind,
  CheckpointRole,
  ResolvedScope,
  SessionEndStatus,
  SessionStatus,
} from '@memory-service/contract';
import type { Database } from './database.js';
import { lifecycleStatement } from './memory-rows.js';
import { allOf, type Condition, visibleTo } from './scope-filter.js';
import {
  EVENT_COLUMNS,
  type ListedSessionRow,
  SESSION_COLUMNS,
  type SessionEventRow,
  type SessionRow,
  SNAPSHOT_COLUMNS,
  type SnapshotRow,
} from './session-rows.js';

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

/** The session columns, each prefixed with a table alias. */
function sessionColumns(alias: string): string {
  return SESSION_COLUMNS.split(', ')
    .map((name) => `${alias}.${name}`)
    .join(', ');
}

/** How often `end` re-reads the events when checkpoints keep landing while it writes. */
const MAX_END_ATTEMPTS = 5;

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

  /** A session visible to the scope (docs/architecture.md#tenancy-and-visibility), whatever its status. */
  async findVisible(id: string, scope: ResolvedScope): Promise<SessionRow | undefined> {
    const visible = visibleTo(scope);
    return this.database.get<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ? AND ${visible.sql}`, [
      id,
      ...visible.args,
    ]);
  }

  /**
   * Sessions visible to the scope, newest activity first (ties by id), optionally of one status, each with the
   * totals of its events (as `totals` counts them): one read that aggregates only the page's events.
   */
  async listVisible(
    scope: ResolvedScope,
    status: SessionStatus | undefined,
    limit: number,
  ): Promise<ListedSessionRow[]> {
    const statusCondition: Condition[] = status === undefined ? [] : [{ sql: 's.status = ?', args: [status] }];
    const where = allOf(visibleTo(scope, 's'), ...statusCondition);
    return this.database.all<ListedSessionRow>(
      `WITH page AS (
         SELECT ${sessionColumns('s')} FROM sessions s WHERE ${where.sql}
          ORDER BY s.last_activity_at DESC, s.id DESC LIMIT ?
       )
       SELECT ${sessionColumns('page')}, sum(e.role = 'user') AS turn_count, sum(e.token_count) AS token_count,
              count(e.id) AS event_count
         FROM page LEFT JOIN session_events e ON e.session_id = page.id
        GROUP BY page.id
        ORDER BY page.last_activity_at DESC, page.id DESC`,
      [...where.args, limit],
    );
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

  /** A session's user turns, summed token counts, event count and latest summary content: one indexed read. */
  async totals(
    sessionId: string,
  ): Promise<{ turnCount: number; tokenCount: number; eventCount: number; summary: string | null }> {
    const row = await this.database.get<{
      turn_count: number | null;
      token_count: number | null;
      event_count: number;
      summary: string | null;
    }>(
      `SELECT sum(role = 'user') AS turn_count, sum(token_count) AS token_count, count(*) AS event_count,
              (SELECT content FROM session_events s WHERE s.session_id = ? AND s.kind = 'summary'
                ORDER BY s.seq DESC LIMIT 1) AS summary
         FROM session_events WHERE session_id = ?`,
      [sessionId, sessionId],
    );
    return {
      turnCount: Number(row?.turn_count ?? 0),
      tokenCount: Number(row?.token_count ?? 0),
      eventCount: Number(row?.event_count ?? 0),
      summary: row?.summary ?? null,
    };
  }

  /** A session's events in order, up to and including `lastSeq` when given, at most `limit` (SQLite reads -1 as none). */
  async events(sessionId: string, lastSeq?: number, limit = -1): Promise<SessionEventRow[]> {
    return this.database.all<SessionEventRow>(
      `SELECT ${EVENT_COLUMNS} FROM session_events WHERE session_id = ? AND seq <= ? ORDER BY seq LIMIT ?`,
      [sessionId, lastSeq ?? Number.MAX_SAFE_INTEGER, limit],
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
