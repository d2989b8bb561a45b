/** A report window in words: `hour`, `24 hours`, `7 days`. */
export function windowLabel(hours: number): string {
  if (hours === 1) return 'hour';
  if (hours >= 48 && hours % 24 === 0) return `${hours / 24} days`;
  return `${hours} hours`;
}
