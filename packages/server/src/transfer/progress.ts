/** Where a report goes: a process stream (its `isTTY` set on a terminal), or a buffer in tests. */
export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** A progress report on stderr: a bar redrawn in place on a terminal, a plain line now and then otherwise. */
export interface Progress {
  /** How far the work is (`done` of `total`; a total of 0 is unknown). */
  update(done: number, total: number): void;
  /** The last report, ended with a newline. */
  finish(): void;
}

const BAR_WIDTH = 30;
/** How often a terminal bar is redrawn at most, and a plain line written. */
const TERMINAL_INTERVAL_MS = 100;
const PLAIN_INTERVAL_MS = 5_000;

const number = (value: number) => value.toLocaleString('en-US');

/**
 * A progress report for `label` (`export`, `import: checking`...) in `unit` (`records`, `bytes`). On a TTY a bar with
 * the percentage; otherwise (a pipe, a log file, CI) a line every 5 seconds and one at the end, so logs stay short.
 */
export function createProgress(
  sink: ProgressSink,
  label: string,
  unit: string,
  now: () => number = Date.now,
): Progress {
  const terminal = sink.isTTY === true;
  let last = { done: 0, total: 0 };
  let shownAt = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const render = () => {
    const { done, total } = last;
    if (total <= 0) return `${label}: ${number(done)} ${unit}`;
    const ratio = Math.min(1, done / total);
    const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
    if (!terminal) return `${label}: ${number(done)} of ${number(total)} ${unit} (${percent.trim()})`;
    const filled = Math.round(ratio * BAR_WIDTH);
    return `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${percent} ${number(done)}/${number(total)} ${unit}`;
  };
  const show = () => {
    sink.write(terminal ? `\r\u001b[2K${render()}` : `${render()}\n`);
    drawn = terminal;
  };
  return {
    update(done, total) {
      last = { done, total };
      const at = now();
      if (at - shownAt < (terminal ? TERMINAL_INTERVAL_MS : PLAIN_INTERVAL_MS)) return;
      shownAt = at;
      show();
    },
    finish() {
      show();
      if (drawn) sink.write('\n');
    },
  };
}
