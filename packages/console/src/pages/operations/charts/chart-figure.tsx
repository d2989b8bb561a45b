import type { ComponentChildren, RefObject } from 'preact';
import { formatValue, type ValueAxis, valueAxis } from './chart-scale.js';

/** The plot area of a chart drawn at a pixel width: its bounds, and its value axis with the tick labels. */
export interface ChartArea {
  width: number;
  height: number;
  top: number;
  bottom: number;
  left: number;
  right: number;
  axis: ValueAxis;
  labels: string[];
}

/**
 * Lays out a chart `width` pixels wide whose values reach `max`: shorter on a phone, the left margin as wide as the
 * longest tick label (or `minLabelLength` characters).
 */
export function chartArea(
  width: number,
  max: number,
  { integer = false, digits = 2, minLabelLength = 0 }: { integer?: boolean; digits?: number; minLabelLength?: number },
): ChartArea {
  const height = width < 480 ? 200 : 240;
  const top = 30;
  const bottom = height - 28;
  const axis = valueAxis(max, { integer, top, bottom });
  const labels = axis.ticks.map((tick) => formatValue(tick, digits));
  const left = 14 + Math.max(...labels.map((label) => label.length), minLabelLength) * 7.2;
  return { width, height, top, bottom, left, right: width - 14, axis, labels };
}

/** A chart's figure: its title and caption, the frame whose width it is drawn at, the SVG, and what follows it. */
export function ChartFigure({
  title,
  caption,
  label,
  frame,
  area,
  children,
  after,
}: {
  title: string;
  caption: ComponentChildren;
  /** What the picture shows, for screen readers. */
  label: string;
  frame: RefObject<HTMLDivElement | null>;
  area: ChartArea;
  children: ComponentChildren;
  /** Shown under the frame (a legend). */
  after?: ComponentChildren;
}) {
  const { width, height } = area;
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
            aria-label={label}
          >
            {children}
          </svg>
        )}
      </div>
      {after}
    </figure>
  );
}

/** The value axis: its unit in the corner, and a grid line with its label at each tick. */
export function ValueGrid({ area: { axis, labels, left, right }, unit }: { area: ChartArea; unit: string }) {
  return (
    <>
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
    </>
  );
}
