import type { ComponentChildren } from 'preact';
import { formatValue, valueAxis } from './chart-scale.js';
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
  bars,
  integer = false,
}: {
  title: string;
  caption: ComponentChildren;
  unit: string;
  bars: readonly Bar[];
  integer?: boolean;
}) {
  const [frame, width] = useElementWidth<HTMLDivElement>();
  const height = width < 480 ? 200 : 240;
  const top = 30;
  const bottom = height - 28;
  const axis = valueAxis(Math.max(0, ...bars.map((bar) => bar.value)), { integer, top, bottom });
  const labels = axis.ticks.map((tick) => formatValue(tick));
  const left = 14 + Math.max(...labels.map((label) => label.length)) * 7.2;
  const right = width - 14;
  const slot = bars.length === 0 ? 0 : (right - left) / bars.length;
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  // Labels need about 48 px each: show every nth when the bars are narrower, counted from the latest.
  const labelEvery = Math.max(1, Math.ceil(48 / Math.max(1, slot)));
  return (
    <figure class="chart">
      <figcaption class="chart__head">
        <span class="chart__title">{title}</span>
        <span class="chart__caption">{caption}</span>
      </figcaption>
      <div class="chart__frame" ref={frame}>
        {width === 0 ? null : (
          <svg
            class="chart__svg"
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label={`${title}: ${bars.map((bar) => `${bar.name} ${formatValue(bar.value)}`).join(', ')} ${unit}`}
          >
            <text x={4} y={14} class="chart__unit">
              {unit}
            </text>
            {axis.ticks.map((tick, index) => (
              <g key={tick}>
                <line x1={left} x2={right} y1={axis.y(tick)} y2={axis.y(tick)} class="chart__grid" />
                <text x={left - 6} y={axis.y(tick) + 4} text-anchor="end" class="chart__tick">
                  {labels[index]}
                </text>
              </g>
            ))}
            {bars.map((bar, index) => {
              const center = left + slot * (index + 0.5);
              const y = axis.y(bar.value);
              return (
                <g key={bar.name}>
                  <title>{`${bar.name}: ${formatValue(bar.value)} ${unit}`}</title>
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
          </svg>
        )}
      </div>
    </figure>
  );
}
