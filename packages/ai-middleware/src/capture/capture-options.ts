import type { LanguageModelV4 } from '@ai-sdk/provider';

/** Extraction: after each turn, `extract` (any AI SDK language model) names the durable memories in it. */
export interface ExtractCapture {
  /** The model that extracts; the wrapped model's base model or a cheaper one. Its calls skip the memory middleware. */
  extract: LanguageModelV4;
  /** Let extracted memories be rules (type or layer `rule`, injected into every later prompt). Default false. */
  allowRuleWrites?: boolean;
  /** Extra guidance appended to the extraction instructions (what matters in your app). */
  instructions?: string;
}

/**
 * What the middleware stores from the conversation by itself, after each finished user turn: nothing (`'off'`, the
 * default), what the user stated and the assistant proposals the user accepted (`'turns'`, no model needed), or what
 * a model extracts from the turn (`{ extract: model }`).
 */
export type CaptureOption = 'off' | 'turns' | ExtractCapture;

/** The prefix of the tags capture puts on what it stores (`capture:turn`, `capture:extract`). */
export const CAPTURE_TAG_PREFIX = 'capture:';

/** What one turn's capture did, for logs and UIs. */
export interface CaptureEvent {
  type: 'captured';
  mode: 'turns' | 'extract';
  /** The memories stored. */
  added: { id: string; content: string }[];
  /** Candidates not stored because the same text is already remembered. */
  duplicates: number;
  /** Older memories the new ones superseded through consolidation (kept as history). */
  superseded: string[];
}

/** The finished turn that capture works from. */
export interface CapturedTurn {
  userText: string;
  answer: string;
  /** The assistant's reply before the user's message, from the prompt's history ('' when the app sent none). */
  previousAnswer: string;
  /** The memories the turn's context brought (for deduplication and contradictions). */
  known: readonly { id: string; content: string }[];
  /** The tools the model called during the turn (a memory tool may have saved something already). */
  toolCalls: readonly { toolName: string; input: string }[];
  sessionId: string | undefined;
}
