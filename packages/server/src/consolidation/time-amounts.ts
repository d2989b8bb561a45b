/** A duration or a frequency read from a statement's words, with the span of words it took. */
export interface TimeAmount {
  kind: '<duration>' | '<frequency>';
  /** Seconds for a duration, times per day for a frequency: two wordings of one amount give one value. */
  value: string;
  from: number;
  to: number;
}

/** Units of time in seconds. */
const SECONDS: ReadonlyMap<string, number> = new Map(
  [
    ['second seconds sec secs', 1],
    ['minute minutes min mins', 60],
    ['hour hours hr hrs', 3600],
    ['day days', 86_400],
    ['week weeks', 604_800],
    ['month months', 2_592_000],
    ['year years', 31_536_000],
  ].flatMap(([forms, seconds]) =>
    String(forms)
      .split(' ')
      .map((form) => [form, Number(seconds)] as const),
  ),
);
const DAY = 86_400;
/** Adverbs of frequency, as times per day. */
const EVERY: ReadonlyMap<string, number> = new Map([
  ['hourly', 24],
  ['daily', 1],
  ['nightly', 1],
  ['weekly', 1 / 7],
  ['fortnightly', 1 / 14],
  ['monthly', 1 / 30],
  ['yearly', 1 / 365],
  ['annually', 1 / 365],
]);
const TIMES: ReadonlyMap<string, number> = new Map([
  ['once', 1],
  ['twice', 2],
]);
const COUNTS: ReadonlyMap<string, number> = new Map(
  'one two three four five six seven eight nine ten eleven twelve'.split(' ').map((word, index) => [word, index + 1]),
);
const PER = new Set(['a', 'an', 'per', 'each', 'every']);
/** Words after a span of time that make it an age or a point in time ("34 years old", "2 weeks ago"). */
const NOT_A_DURATION = new Set(['old', 'ago', 'older', 'younger', 'later', 'earlier', 'before', 'after']);

function count(word: string | undefined): number | null {
  if (word === undefined) return null;
  if (/^\d+(?:\.\d+)?$/.test(word)) return Number(word);
  return COUNTS.get(word) ?? null;
}

const rounded = (value: number) => String(Math.round(value * 1e6) / 1e6);

/** The frequency that starts at `index` ("every hour", "once a day", "3 times a week", "every 2 weeks", "daily"). */
function frequencyAt(words: readonly string[], index: number): TimeAmount | null {
  const word = words[index] ?? '';
  const adverb = EVERY.get(word);
  if (adverb !== undefined) return { kind: '<frequency>', value: rounded(adverb), from: index, to: index };
  if (word === 'every') {
    const n = count(words[index + 1]);
    const to = index + (n === null ? 1 : 2);
    // "every second Tuesday" is an ordinal, not a unit.
    const unit = words[to] === 'second' ? undefined : SECONDS.get(words[to] ?? '');
    if (unit === undefined) return null;
    return { kind: '<frequency>', value: rounded(DAY / (unit * (n ?? 1))), from: index, to };
  }
  const times = TIMES.get(word) ?? (words[index + 1] === 'times' ? count(word) : null);
  if (times === null) return null;
  const at = index + (TIMES.has(word) ? 1 : 2);
  const unit = PER.has(words[at] ?? '') ? SECONDS.get(words[at + 1] ?? '') : undefined;
  if (unit === undefined) return null;
  return { kind: '<frequency>', value: rounded((times * DAY) / unit), from: index, to: at + 1 };
}

/** The duration that starts at `index` ("5 minutes", "one hour", "90 secs"); not an age or a point in time. */
function durationAt(words: readonly string[], index: number): TimeAmount | null {
  const n = count(words[index]);
  const unit = SECONDS.get(words[index + 1] ?? '');
  if (n === null || unit === undefined || NOT_A_DURATION.has(words[index + 2] ?? '')) return null;
  // "20 miles a week" and "1,450 a month" are rates, read elsewhere; "2 days a week" is a rate too.
  if (PER.has(words[index + 2] ?? '') && SECONDS.has(words[index + 3] ?? '')) return null;
  return { kind: '<duration>', value: rounded(n * unit), from: index, to: index + 1 };
}

/**
 * Durations and frequencies in a statement's words, each as one value of a closed kind whatever its unit: "5
 * minutes" and "300 seconds" are one duration, "every hour" and "24 times a day" one frequency, so "The cache TTL is
 * 5 minutes" / "Cached entries expire after one hour" give one slot two values.
 */
export function readTimeAmounts(words: readonly string[]): TimeAmount[] {
  const found: TimeAmount[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const amount = frequencyAt(words, index) ?? durationAt(words, index);
    if (amount === null) continue;
    found.push(amount);
    index = amount.to;
  }
  return found;
}
