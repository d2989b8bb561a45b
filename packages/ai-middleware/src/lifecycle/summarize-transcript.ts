import type { TranscriptEntry } from './session-options.js';

const MAX_LINES = 24;
const MAX_ENTRY_CHARACTERS = 280;

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

/** The lines of a carried summary, without its header: they go on in the next summary. */
function carriedLines(summary: string): string[] {
  return summary
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('- ') && !/^- \(\d+ earlier messages omitted\)$/.test(line));
}

/**
 * The default compaction summary, without calling a model: the lines of the summary the session carried, then one
 * clipped line per message, the last 24 lines in all.
 */
export function summarizeTranscript(transcript: readonly TranscriptEntry[], reason: string | null): string {
  const turns = transcript.filter((entry) => entry.role === 'user').length;
  const lines = transcript.flatMap((entry) =>
    entry.role === 'summary'
      ? carriedLines(entry.text)
      : [`- ${entry.role}: ${clip(entry.text, MAX_ENTRY_CHARACTERS)}`],
  );
  const kept = lines.slice(-MAX_LINES);
  const header = `Summary of a session of ${turns} turn${turns === 1 ? '' : 's'}${reason === null ? '' : ` (compacted: ${reason})`}:`;
  const omitted = lines.length - kept.length;
  return [header, ...(omitted > 0 ? [`- (${omitted} earlier messages omitted)`] : []), ...kept].join('\n');
}
