/** A one-line progress bar on stderr (redrawn in place on a terminal, a line per 10% otherwise). */
export class ProgressBar {
  private done = 0;
  private lastDecile = -1;

  constructor(
    private readonly total: number,
    private readonly width = 30,
  ) {}

  /** Advances by one step and redraws with a label. */
  tick(label: string): void {
    this.done += 1;
    const fraction = this.total === 0 ? 1 : this.done / this.total;
    const filled = Math.round(fraction * this.width);
    const line = `[${'#'.repeat(filled)}${'-'.repeat(this.width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${label}`;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${line.padEnd(100).slice(0, 100)}`);
      if (this.done === this.total) process.stderr.write('\n');
      return;
    }
    const decile = Math.floor(fraction * 10);
    if (decile !== this.lastDecile) {
      this.lastDecile = decile;
      process.stderr.write(`${line}\n`);
    }
  }
}
