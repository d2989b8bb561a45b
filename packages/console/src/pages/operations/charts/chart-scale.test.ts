import { describe, expect, it } from 'vitest';
import { formatTick, placeTickLabels } from './chart-scale.js';

// Time labels under a chart: "08:01:45 AM08:02:00 AM" must never happen, and the newest time stays readable.
const width = (label: string) => label.length * 7;
const tick = (index: number, x: number) => ({ at: index, x, label: `08:0${index}:00 AM` }); // 11 characters: 77 px

function overlaps(placed: ReturnType<typeof placeTickLabels>, gap = 8): boolean {
  return placed.some((current, index) => {
    const previous = placed[index - 1];
    return (
      previous !== undefined && current.x - width(current.label) / 2 < previous.x + width(previous.label) / 2 + gap
    );
  });
}

describe('time tick labels', () => {
  it('keeps every label when they fit, each centred under its tick', () => {
    const ticks = [tick(1, 100), tick(2, 200), tick(3, 300)];
    expect(placeTickLabels(ticks, { left: 0, right: 400, width })).toEqual(
      ticks.map(({ at, x, label }) => ({ at, x, label })),
    );
  });

  it('drops labels that would run into the one before, never overlapping', () => {
    const ticks = [1, 2, 3, 4, 5, 6].map((index) => tick(index, index * 50));
    const placed = placeTickLabels(ticks, { left: 0, right: 400, width });
    expect(overlaps(placed)).toBe(false);
    expect(placed.length).toBeGreaterThan(1);
    expect(placed.length).toBeLessThan(ticks.length);
  });

  it('keeps the newest label when the last two would touch', () => {
    const placed = placeTickLabels([tick(1, 100), tick(2, 200), tick(3, 240)], { left: 0, right: 400, width });
    expect(placed.map((entry) => entry.at)).toEqual([1, 3]);
  });

  it('pulls a label at the edge inside the chart, and drops a neighbour it would then cover', () => {
    const placed = placeTickLabels([tick(1, 5), tick(2, 60), tick(3, 395)], { left: 0, right: 400, width });
    expect(placed[0]!.x).toBe(38.5);
    expect(placed.at(-1)!.x).toBe(400 - 38.5);
    expect(placed.map((entry) => entry.at)).toEqual([1, 3]);
    expect(overlaps(placed)).toBe(false);
  });
});

describe('time tick words', () => {
  const HOUR = 3_600_000;
  const monday = Date.UTC(2026, 10, 23, 0, 0);
  const tuesday = monday + 24 * HOUR;

  it('tells the days of a week of ticks at midnight apart, instead of repeating the same time', () => {
    expect(formatTick(monday, 24 * HOUR)).not.toBe(formatTick(tuesday, 24 * HOUR));
    expect(formatTick(monday, 6 * HOUR)).not.toBe(formatTick(tuesday, 6 * HOUR));
  });

  it('shows the time of day when ticks are hours or minutes apart, with seconds under a minute', () => {
    expect(formatTick(monday + 6 * HOUR, 6 * HOUR)).not.toBe(formatTick(monday + 12 * HOUR, 6 * HOUR));
    expect(formatTick(monday + 15_000, 15_000)).not.toBe(formatTick(monday + 30_000, 15_000));
    expect(formatTick(monday + 60_000, 60_000)).toMatch(/\d{2}.\d{2}/);
  });
});
