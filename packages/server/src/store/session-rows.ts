import type {
  CheckpointKind,
  CheckpointRole,
  ListedSession,
  Session,
  SessionEvent,
  SessionSnapshot,
  SessionStatus,
} from '@memory-service/contract';
import { parseJson, textOrNull } from './rows.js';

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

/** A `sessions` row with the totals of its events (`SessionStore.listVisible`). */
export interface ListedSessionRow extends SessionRow {
  turn_count: number | null;
  token_count: number | null;
  event_count: number;
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

/** The columns of each table, in the order the row types list them. */
export const SESSION_COLUMNS =
  'id, user_id, project_id, client, status, title, metadata, started_at, last_activity_at, ended_at';
export const EVENT_COLUMNS =
  'id, session_id, seq, role, kind, content, token_count, turn_index, is_meaningful, created_at';
export const SNAPSHOT_COLUMNS =
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

/** A listed session with the totals `SessionStore.listVisible` read beside it. */
export function toListedSession(row: ListedSessionRow, tenantId: string | null): ListedSession {
  return {
    ...toSession(row, tenantId),
    totals: {
      turnCount: Number(row.turn_count ?? 0),
      tokenCount: Number(row.token_count ?? 0),
      eventCount: Number(row.event_count ?? 0),
    },
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
