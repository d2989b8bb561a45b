import type { PageProps } from '../../pages.js';
import { SessionIndex } from './session-index.js';
import { SessionView } from './session-view.js';

/**
 * Sessions: `/console/sessions` lists the scope's sessions (sessions/list, by status), starts one or opens one by id;
 * `/console/sessions/<id>` shows one: its events (sessions/events, active or not), add checkpoints and End while
 * active, its snapshot and transcript once ended, and Promote to a skill file.
 */
export function SessionsPage({ subPath }: PageProps) {
  const [sessionId] = subPath;
  return sessionId === undefined ? <SessionIndex /> : <SessionView key={sessionId} sessionId={sessionId} />;
}
