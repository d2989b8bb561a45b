import { readFileSync } from 'node:fs';

/** One dialog turn as a memory to store. */
export interface TurnMemory {
  diaId: string;
  content: string;
  sessionDate: string | null;
  /** The parts of `content`, for replays that word a turn differently (`capture/`). */
  speaker: string;
  text: string;
  caption: string | null;
  session: number;
}

/** One QA item with usable evidence (categories 1-4). */
export interface QaItem {
  question: string;
  category: number;
  evidence: string[];
}

/** A conversation ready to benchmark: its memories in dialog order and its scored questions. */
export interface Conversation {
  sampleId: string;
  turns: TurnMemory[];
  items: QaItem[];
}

/** What normalisation did to the evidence (README: normalise what can be read, skip and count what cannot). */
export interface EvidenceCounts {
  /** Entries rewritten to read (joined lists, `D:11:26`). */
  normalised: number;
  /** Parts that are not a dialog id at all (`D`). */
  unreadable: number;
  /** Ids naming a turn the conversation does not have. */
  missingTurns: number;
  /** Category 1-4 items left without any usable evidence (not scored). */
  itemsSkipped: number;
  /** Category 5 (adversarial) items: no usable evidence by design, left out. */
  adversarialExcluded: number;
}

const SCORED_CATEGORIES = new Set([1, 2, 3, 4]);

interface RawTurn {
  speaker?: unknown;
  dia_id?: unknown;
  text?: unknown;
  blip_caption?: unknown;
}

/** The turns of a conversation in session order: content `<speaker>: <text>` plus the image caption, if any. */
function turnsOf(conversation: Record<string, unknown>): TurnMemory[] {
  const turns: TurnMemory[] = [];
  for (let session = 1; Array.isArray(conversation[`session_${session}`]); session += 1) {
    const date = conversation[`session_${session}_date_time`];
    for (const turn of conversation[`session_${session}`] as RawTurn[]) {
      if (typeof turn.dia_id !== 'string' || typeof turn.text !== 'string') continue;
      const caption = typeof turn.blip_caption === 'string' ? turn.blip_caption : null;
      const speaker = String(turn.speaker ?? 'Someone');
      turns.push({
        diaId: turn.dia_id,
        content: `${speaker}: ${turn.text}${caption === null ? '' : ` (image: ${caption})`}`,
        sessionDate: typeof date === 'string' ? date : null,
        speaker,
        text: turn.text,
        caption,
        session,
      });
    }
  }
  return turns;
}

/** Reads evidence entries into dialog ids (`D<session>:<turn>`), counting what had to be normalised or skipped. */
export function normaliseEvidence(entries: readonly unknown[], known: ReadonlySet<string>, counts: EvidenceCounts) {
  const ids = new Set<string>();
  for (const entry of entries) {
    const parts = String(entry)
      .split(/[;,\s]+/)
      .filter((part) => part !== '');
    let rewritten = parts.length !== 1;
    for (const part of parts) {
      const match = /^D:?(\d+):(\d+)$/.exec(part);
      if (match === null) {
        counts.unreadable += 1;
        continue;
      }
      const id = `D${match[1]}:${match[2]}`;
      if (id !== part) rewritten = true;
      if (known.has(id)) ids.add(id);
      else counts.missingTurns += 1;
    }
    if (rewritten) counts.normalised += 1;
  }
  return [...ids];
}

/** Loads a LoCoMo-format file (a list of samples). The data stays where it is: nothing is copied. */
export function loadLocomo(file: string): { conversations: Conversation[]; evidence: EvidenceCounts } {
  const samples = JSON.parse(readFileSync(file, 'utf8')) as Array<Record<string, unknown>>;
  const evidence: EvidenceCounts = {
    normalised: 0,
    unreadable: 0,
    missingTurns: 0,
    itemsSkipped: 0,
    adversarialExcluded: 0,
  };
  const conversations = samples.map((sample, index): Conversation => {
    const turns = turnsOf((sample.conversation ?? {}) as Record<string, unknown>);
    const known = new Set(turns.map((turn) => turn.diaId));
    const items: QaItem[] = [];
    for (const qa of (sample.qa ?? []) as Array<Record<string, unknown>>) {
      const category = Number(qa.category);
      if (!SCORED_CATEGORIES.has(category)) {
        evidence.adversarialExcluded += 1;
        continue;
      }
      const ids = normaliseEvidence(Array.isArray(qa.evidence) ? qa.evidence : [], known, evidence);
      if (ids.length === 0 || typeof qa.question !== 'string') {
        evidence.itemsSkipped += 1;
        continue;
      }
      items.push({ question: qa.question, category, evidence: ids });
    }
    return { sampleId: String(sample.sample_id ?? `sample-${index + 1}`), turns, items };
  });
  return { conversations, evidence };
}
