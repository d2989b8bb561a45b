/** A value axis: its ticks from 0 to the top, and a function from a value to a y coordinate. */
export interface ValueAxis {
  ticks: number[];
  top: number;
  y: (value: number) => number;
}

/**
 * A value axis from 0 to a "nice" top (1, 2, 2.5 or 5 times a power of ten) over at least `max`, with about `count`
 * ticks; `integer` keeps the step at 1 or more (counts have no half items).
 */
export function valueAxis(
  max: number,
  {
    count = 4,
    integer = false,
    top: pixelTop,
    bottom,
  }: { count?: number; integer?: boolean; top: number; bottom: number },
): ValueAxis {
  const span = Number.isFinite(max) && max > 0 ? max : 1;
  const rough = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  let step = [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((candidate) => candidate >= rough) ?? rough;
  if (integer) step = Math.max(1, Math.ceil(step));
  const top = Math.ceil(span / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let index = 0; index * step <= top + step / 1e6; index += 1) ticks.push(Number((index * step).toPrecision(12)));
  return { ticks, top, y: (value) => bottom - (value / top) * (bottom - pixelTop) };
}

const TIME_STEPS_MS = [10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 86400].map((s) => s * 1000);

/** Time ticks at round steps (10 s ... 1 day) between `from` and `to`, at most `maxTicks` of them. */
export function timeTicks(from: number, to: number, maxTicks: number): { ticks: number[]; stepMs: number } {
  const span = Math.max(1, to - from);
  const stepMs =
    TIME_STEPS_MS.find((step) => span / step <= Math.max(1, maxTicks)) ?? TIME_STEPS_MS[TIME_STEPS_MS.length - 1]!;
  const ticks: number[] = [];
  for (let tick = Math.ceil(from / stepMs) * stepMs; tick <= to; tick += stepMs) ticks.push(tick);
  return { ticks, stepMs };
}

const clockWithSeconds = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dayAndClock = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

const HOUR_MS = 3_600_000;

/**
 * A time tick's label: with seconds when ticks are less than a minute apart, the date alone when they are a day
 * apart, and date and time when they are hours apart (a week of ticks at 00:00 would otherwise all read the same).
 */
export function formatTick(at: number, stepMs: number): string {
  const date = new Date(at);
  if (stepMs >= 24 * HOUR_MS) return day.format(date);
  if (stepMs >= 6 * HOUR_MS) return dayAndClock.format(date);
  return (stepMs < 60_000 ? clockWithSeconds : clock).format(date);
}

/** A time tick's label placed on the axis: its centre and its text. */
export interface PlacedTick {
  at: number;
  x: number;
  label: string;
}

/**
 * The time ticks to label, left to right: each label centred under its tick but kept inside [`left`, `right`], and a
 * label dropped when it would come closer than `gap` pixels to the one before (`width` measures a label). The last
 * tick is the one most worth reading (the newest), so when the last two would touch, the one before it goes.
 */
export function placeTickLabels(
  ticks: readonly { at: number; x: number; label: string }[],
  { left, right, width, gap = 8 }: { left: number; right: number; width: (label: string) => number; gap?: number },
): PlacedTick[] {
  const placed: Array<PlacedTick & { from: number; to: number }> = [];
  for (const tick of ticks) {
    const half = width(tick.label) / 2;
    const x = Math.min(Math.max(tick.x, left + half), right - half);
    const candidate = { ...tick, x, from: x - half, to: x + half };
    const previous = placed.at(-1);
    if (previous !== undefined && candidate.from < previous.to + gap) {
      // Keep the newer of the two only when it is the last tick; else keep the earlier one.
      if (tick !== ticks.at(-1)) continue;
      placed.pop();
      const before = placed.at(-1);
      if (before !== undefined && candidate.from < before.to + gap) continue;
    }
    placed.push(candidate);
  }
  return placed.map(({ at, x, label }) => ({ at, x, label }));
}

/** A figure for an axis or a legend: at most `digits` decimals, grouped thousands. */
export function formatValue(value: number, digits = 2): string {
  return value.toLocaleString(undefined, { maximumFractionDigits: digits });
}

/** A figure with its unit in the right number: `1 memory`, `3 memories`, `0.5 ms` (`unitOne` only for exactly 1). */
export function withUnit(
  value: number,
  unit: string,
  { digits = 2, unitOne }: { digits?: number; unitOne?: string } = {},
) {
  return `${formatValue(value, digits)} ${value === 1 && unitOne !== undefined ? unitOne : unit}`;
}

/** The colours and dash patterns of a chart's series, told apart by both (colour-blind readers, print). */
export const SERIES_STYLES = [
  { color: '#0b57a4', dash: undefined },
  { color: '#c2410c', dash: '7 4' },
  { color: '#6d28d9', dash: '2 3' },
  { color: '#15803d', dash: '9 3 2 3' },
] as const;

/** The style of the series at `index`. */
export function seriesStyle(index: number): (typeof SERIES_STYLES)[number] {
  return SERIES_STYLES[index % SERIES_STYLES.length]!;
}
