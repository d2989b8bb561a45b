import type { Scope, SessionStatus } from '@memory-service/client';

/** A session this tab started or opened: the API has no route that lists sessions, so the console remembers them. */
export interface SeenSession {
  id: string;
  title: string | null;
  /** The last status the console saw; null when it only saw the id. */
  status: SessionStatus | null;
  /** When the console last saw it (ISO). */
  seenAt: string;
}

// sessionStorage, like the credentials: the list lasts as long as the tab. Ids are not secrets, but they are scoped.
const STORAGE_KEY = 'memory-service-console.sessions-seen';
const KEEP = 50;

type Stored = Record<string, SeenSession[]>;

/** One key per scope: a session is visible only in the scope it was started in. */
function scopeKey(scope: Scope): string {
  return [scope.tenantId ?? '', scope.userId ?? '', scope.projectId ?? ''].join('\u0000');
}

function read(): Stored {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Stored) : {};
  } catch {
    return {};
  }
}

/** The sessions this tab saw in a scope, most recent first. */
export function seenSessions(scope: Scope): SeenSession[] {
  const list = read()[scopeKey(scope)];
  return Array.isArray(list) ? list : [];
}

/** Records that the tab saw a session (started, opened, ended); what is not given keeps its last value. */
export function rememberSession(
  scope: Scope,
  seen: { id: string; title?: string | null; status?: SessionStatus | null },
): void {
  const stored = read();
  const key = scopeKey(scope);
  const previous = (stored[key] ?? []).find((entry) => entry.id === seen.id);
  const entry: SeenSession = {
    id: seen.id,
    title: seen.title ?? previous?.title ?? null,
    status: seen.status ?? previous?.status ?? null,
    seenAt: new Date().toISOString(),
  };
  stored[key] = [entry, ...(stored[key] ?? []).filter((other) => other.id !== seen.id)].slice(0, KEEP);
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  } catch {
    // A full or disabled storage only costs the list.
  }
}
