import type { ComponentChildren } from 'preact';
import { ChartFigure, chartArea, ValueGrid } from './chart-figure.js';
import { formatValue, withUnit } from './chart-scale.js';
import { useElementWidth } from './use-element-width.js';

/** One bar: its axis label, its value, and a longer name for screen readers and the tooltip. */
export interface Bar {
  label: string;
  value: number;
  name: string;
}

/**
 * A bar chart of a short series (a daily trend), as inline SVG at the element's pixel width: a value axis with its
 * unit, one bar per entry with its value above it, and as many labels under the bars as fit.
 */
export function BarChart({
  title,
  caption,
  unit,
  unitOne,
  bars,
  integer = false,
}: {
  title: string;
  caption: ComponentChildren;
  unit: string;
  /** The unit after exactly 1 ("contradiction"), when it differs. */
  unitOne?: string;
  bars: readonly Bar[];
  integer?: boolean;
}) {
  const [frame, width] = useElementWidth<HTMLDivElement>();
  const area = chartArea(width, Math.max(0, ...bars.map((bar) => bar.value)), { integer });
  const { axis, left, right, bottom } = area;
  const slot = bars.length === 0 ? 0 : (right - left) / bars.length;
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  // Labels need about 48 px each: show every nth when the bars are narrower, counted from the latest.
  const labelEvery = Math.max(1, Math.ceil(48 / Math.max(1, slot)));
  return (
    <ChartFigure
      title={title}
      caption={caption}
      label={`${title}: ${bars.map((bar) => `${bar.name} ${formatValue(bar.value)}`).join(', ')} ${unit}`}
      frame={frame}
      area={area}
    >
      <ValueGrid area={area} unit={unit} />
      {bars.map((bar, index) => {
        const center = left + slot * (index + 0.5);
        const y = axis.y(bar.value);
        return (
          <g key={bar.name}>
            <title>{`${bar.name}: ${withUnit(bar.value, unit, { unitOne })}`}</title>
            <rect x={center - barWidth / 2} y={y} width={barWidth} height={bottom - y} class="chart__bar" />
            {bar.value > 0 && barWidth >= 14 ? (
              <text x={center} y={y - 5} text-anchor="middle" class="chart__bar-value">
                {formatValue(bar.value)}
              </text>
            ) : null}
            {(bars.length - 1 - index) % labelEvery === 0 ? (
              <text x={center} y={bottom + 17} text-anchor="middle" class="chart__tick">
                {bar.label}
              </text>
            ) : null}
          </g>
        );
      })}
      <line x1={left} x2={right} y1={bottom} y2={bottom} class="chart__axis" />
    </ChartFigure>
  );
}
