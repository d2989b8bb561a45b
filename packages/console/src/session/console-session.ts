import type { Scope } from '@memory-service/client';

/** What the console keeps for one browser tab: the credentials and the scope applied to every call. */
export interface ConsoleSession {
  /** A `mem_` API key for the runtime pages (memories, context, graph, sessions, skill files). */
  apiKey: string | null;
  /** The server's admin token, for the management pages (Operations). */
  adminToken: string | null;
  /** tenantId, userId, projectId; an empty field is left out of requests. */
  scope: Scope;
}

// sessionStorage, not localStorage: the credentials last as long as the tab and never reach the URL or the server logs.
const STORAGE_KEY = 'memory-service-console.session';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Drops empty scope fields, so a blank input means "not set" rather than an empty id. */
export function cleanScope(scope: Partial<Record<keyof Scope, unknown>>): Scope {
  const cleaned: Scope = {};
  for (const key of ['tenantId', 'userId', 'projectId'] as const) {
    const value = text(scope[key]);
    if (value !== null) cleaned[key] = value;
  }
  return cleaned;
}

/** The session stored for this tab, or null when signed out (or when what is stored is unreadable). */
export function loadSession(): ConsoleSession | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (raw === null) return null;
    const parsed = JSON.parse(raw) as Partial<ConsoleSession>;
    const session = {
      apiKey: text(parsed.apiKey),
      adminToken: text(parsed.adminToken),
      scope: cleanScope(parsed.scope ?? {}),
    };
    return session.apiKey === null && session.adminToken === null ? null : session;
  } catch {
    return null;
  }
}

/** Stores the session for this tab. */
export function saveSession(session: ConsoleSession): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

/** Forgets the session: credentials and scope. */
export function clearSession(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
