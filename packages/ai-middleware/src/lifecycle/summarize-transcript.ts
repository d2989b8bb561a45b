import type { TranscriptEntry } from './session-options.js';

const MAX_ENTRIES = 24;
const MAX_ENTRY_CHARACTERS = 280;

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

/** The default compaction summary: the session's last turns, one clipped line each, without calling a model. */
export function summarizeTranscript(transcript: readonly TranscriptEntry[], reason: string | null): string {
  const turns = transcript.filter((entry) => entry.role === 'user').length;
  const kept = transcript.slice(-MAX_ENTRIES);
  const header = `Summary of a session of ${turns} turn${turns === 1 ? '' : 's'}${reason === null ? '' : ` (compacted: ${reason})`}:`;
  const omitted = transcript.length - kept.length;
  return [
    header,
    ...(omitted > 0 ? [`- (${omitted} earlier messages omitted)`] : []),
    ...kept.map((entry) => `- ${entry.role}: ${clip(entry.text, MAX_ENTRY_CHARACTERS)}`),
  ].join('\n');
}
