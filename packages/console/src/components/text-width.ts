/** The estimate where no canvas can measure (tests outside a browser): px per character of 12 px text. */
const ESTIMATE = { regular: 6.6, bold: 7.6 } as const;

let context: CanvasRenderingContext2D | null | undefined;
let family = 'sans-serif';

function measuringContext(): CanvasRenderingContext2D | null {
  if (context !== undefined) return context;
  if (typeof document === 'undefined') {
    context = null;
    return context;
  }
  context = document.createElement('canvas').getContext('2d');
  // The stylesheet's font stack, so the width is that of the text the SVG draws.
  family = getComputedStyle(document.documentElement).getPropertyValue('--font-sans').trim() || family;
  return context;
}

/**
 * The width in pixels of a line of SVG text as the browser draws it (`size` px, bold or not), measured with a canvas
 * in the page's own font stack; an estimate where no canvas exists. The graph's labels and the charts' time ticks
 * are placed from these widths, so a wide font or a bold label neither sticks out of a picture nor runs into the
 * next label.
 */
export function textWidth(text: string, { size = 12, bold = false }: { size?: number; bold?: boolean } = {}): number {
  const canvas = measuringContext();
  if (canvas === null) return text.length * (bold ? ESTIMATE.bold : ESTIMATE.regular) * (size / 12);
  canvas.font = `${bold ? '700 ' : ''}${size}px ${family}`;
  return canvas.measureText(text).width;
}
