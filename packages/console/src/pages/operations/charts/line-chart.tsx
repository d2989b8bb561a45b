import type { ComponentChildren } from 'preact';
import { textWidth } from '../../../components/text-width.js';
import { ChartFigure, chartArea, ValueGrid } from './chart-figure.js';
import { formatTick, placeTickLabels, seriesStyle, timeTicks, withUnit } from './chart-scale.js';
import { useElementWidth } from './use-element-width.js';

/** One point of a series: a time (epoch ms) and a value, null where there was none (a gap in the line). */
export interface TimePoint {
  at: number;
  value: number | null;
}

/** One line of a `LineChart`. */
export interface LineSeries {
  name: string;
  points: readonly TimePoint[];
}

/** A horizontal reference line (an SLO). */
export interface Threshold {
  value: number;
  label: string;
}

/** A single sample sits in the middle of a minute. */
const SINGLE_SPAN_MS = 60_000;
/** Room between the axis and the first and last points. */
const INSET = 8;

function pathOf(points: readonly TimePoint[], x: (at: number) => number, y: (value: number) => number): string {
  let path = '';
  let drawing = false;
  for (const point of points) {
    if (point.value === null) {
      drawing = false;
      continue;
    }
    path += `${drawing ? 'L' : 'M'}${x(point.at).toFixed(1)} ${y(point.value).toFixed(1)}`;
    drawing = true;
  }
  return path;
}

function latestValue(series: LineSeries): number | null {
  for (let index = series.points.length - 1; index >= 0; index -= 1) {
    const value = series.points[index]?.value;
    if (value !== null && value !== undefined) return value;
  }
  return null;
}

/** Each series' line style and latest value, and the SLO line with a note when it is above the plotted range. */
function Legend({
  series,
  threshold,
  showThreshold,
  unit,
  unitOne,
  digits,
}: {
  series: readonly LineSeries[];
  threshold: Threshold | undefined;
  showThreshold: boolean;
  unit: string;
  unitOne: string | undefined;
  digits: number;
}) {
  return (
    <ul class="chart__legend">
      {series.map((line, index) => {
        const style = seriesStyle(index);
        const latest = latestValue(line);
        return (
          <li key={line.name} class="chart__legend-item">
            <svg width={26} height={10} aria-hidden="true" class="chart__swatch">
              <line x1={1} x2={25} y1={5} y2={5} stroke={style.color} stroke-width={3} stroke-dasharray={style.dash} />
            </svg>
            {line.name}: <strong>{latest === null ? 'none' : withUnit(latest, unit, { digits, unitOne })}</strong>
          </li>
        );
      })}
      {threshold === undefined ? null : (
        <li class="chart__legend-item">
          <svg width={26} height={10} aria-hidden="true" class="chart__swatch">
            <line x1={1} x2={25} y1={5} y2={5} class="chart__threshold" />
          </svg>
          {threshold.label}
          {showThreshold ? null : ' (above the plotted range)'}
        </li>
      )}
    </ul>
  );
}

/**
 * A line chart of values over time, as inline SVG drawn at the element's pixel width: a value axis with its unit,
 * a time axis, one line per series (colour and dash), points at each sample, an optional SLO line, and a legend
 * with each series' latest value.
 */
export function LineChart({
  title,
  caption,
  unit,
  unitOne,
  series,
  threshold,
  minTop = 0,
  integer = false,
  digits = 2,
}: {
  title: string;
  caption: ComponentChildren;
  /** The value axis unit: "ms", "%", "memories". */
  unit: string;
  /** The unit after exactly 1 ("memory"), when it differs. */
  unitOne?: string;
  series: readonly LineSeries[];
  threshold?: Threshold;
  /** The axis reaches at least this value (to keep an SLO line in view). */
  minTop?: number;
  integer?: boolean;
  digits?: number;
}) {
  const [frame, width] = useElementWidth<HTMLDivElement>();
  const points = series.flatMap((line) => line.points);
  const values = points.flatMap((point) => (point.value === null ? [] : [point.value]));
  const area = chartArea(width, Math.max(minTop, ...values, 0), {
    integer: integer || digits === 0,
    digits,
    minLabelLength: unit.length / 2,
  });
  const { axis, top, bottom, left, right } = area;
  const first = Math.min(...points.map((point) => point.at));
  const last = Math.max(...points.map((point) => point.at));
  const [from, to] = last > first ? [first, last] : [first - SINGLE_SPAN_MS / 2, first + SINGLE_SPAN_MS / 2];
  const x = (at: number) => left + INSET + ((at - from) / (to - from)) * (right - left - 2 * INSET);
  const time = points.length === 0 ? { ticks: [], stepMs: SINGLE_SPAN_MS } : timeTicks(from, to, (right - left) / 90);
  const showThreshold = threshold !== undefined && threshold.value <= axis.top;
  const summary = series
    .map((line) => `${line.name} ${withUnit(latestValue(line) ?? Number.NaN, unit, { digits, unitOne })}`)
    .join(', ');
  return (
    <ChartFigure
      title={title}
      caption={caption}
      label={`${title}, latest: ${summary}`}
      frame={frame}
      area={area}
      after={
        <Legend
          series={series}
          threshold={threshold}
          showThreshold={showThreshold}
          unit={unit}
          unitOne={unitOne}
          digits={digits}
        />
      }
    >
      <ValueGrid area={area} unit={unit} />
      {time.ticks.map((tick) => (
        <line key={tick} x1={x(tick)} x2={x(tick)} y1={bottom} y2={bottom + 4} class="chart__axis" />
      ))}
      {placeTickLabels(
        time.ticks.map((tick) => ({ at: tick, x: x(tick), label: formatTick(tick, time.stepMs) })),
        { left: 2, right: width - 2, width: (label) => textWidth(label) },
      ).map((tick) => (
        <text key={tick.at} x={tick.x} y={bottom + 17} text-anchor="middle" class="chart__tick">
          {tick.label}
        </text>
      ))}
      <line x1={left} x2={right} y1={bottom} y2={bottom} class="chart__axis" />
      {showThreshold ? (
        <g>
          <line
            x1={left}
            x2={right}
            y1={axis.y(threshold.value)}
            y2={axis.y(threshold.value)}
            class="chart__threshold"
          />
          <text x={right} y={axis.y(threshold.value) - 5} text-anchor="end" class="chart__threshold-label">
            {threshold.label}
          </text>
        </g>
      ) : null}
      {values.length === 0 ? (
        <text x={(left + right) / 2} y={(top + bottom) / 2} text-anchor="middle" class="chart__empty">
          No value yet
        </text>
      ) : null}
      {series.map((line, index) => {
        const style = seriesStyle(index);
        return (
          <g key={line.name} stroke={style.color} fill={style.color}>
            <path d={pathOf(line.points, x, axis.y)} fill="none" stroke-width={2} stroke-dasharray={style.dash} />
            {line.points.map((point) =>
              point.value === null ? null : <circle key={point.at} cx={x(point.at)} cy={axis.y(point.value)} r={3} />,
            )}
          </g>
        );
      })}
    </ChartFigure>
  );
}
