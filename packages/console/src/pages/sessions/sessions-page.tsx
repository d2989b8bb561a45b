import type { PageProps } from '../../pages.js';
import { SessionIndex } from './session-index.js';
import { SessionView } from './session-view.js';

/**
 * Sessions: `/console/sessions` opens a session by id, starts one, and lists the sessions this tab saw and those
 * that memories and skill files name (the API has no route that lists sessions); `/console/sessions/<id>` shows
 * one: its checkpoints while active, its snapshot and transcript once ended, End and Promote to a skill file.
 */
export function SessionsPage({ subPath }: PageProps) {
  const [sessionId] = subPath;
  return sessionId === undefined ? <SessionIndex /> : <SessionView key={sessionId} sessionId={sessionId} />;
}
