import type { CapturedTurn } from '../capture/capture-options.js';
import type { SessionView } from '../lifecycle/session-lifecycle.js';
import type { ModelOutput } from '../prompt.js';

/** One user turn's prepared context, shared by the steps of its tool loop. */
export interface PreparedTurn {
  text: string;
  /** The session after the turn's checkpoint (and compaction, if one ran). */
  view: SessionView | undefined;
  known: CapturedTurn['known'];
}

/** A turn prepared without memory: past the time budget, or under an aborted call. */
export const UNPREPARED_TURN: PreparedTurn = { text: '', view: undefined, known: [] };

/** A user turn the middleware is serving. */
export interface TurnRecord {
  prepared: Promise<PreparedTurn>;
  /** The turn's user message (empty when the prompt has none: nothing to capture). */
  userText: string;
  /** The assistant's reply that the user message answers, from the prompt's history. */
  previousAnswer: string;
  /** The tools the model called in the turn's steps so far. */
  toolCalls: ModelOutput['toolCalls'];
  /** Whether a step has given the turn's final answer (a step that did not end in tool calls). */
  answered: boolean;
  captured: boolean;
}
