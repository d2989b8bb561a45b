import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** One reading of a process: open file descriptors and resident set size. */
export interface ProcessSample {
  /** Seconds since the sampler started. */
  seconds: number;
  /** What the run was doing when the sample was taken (e.g. `load`, `idle`). */
  phase: string;
  descriptors: number;
  rssMb: number;
}

/** Reads a process's open descriptors (entries of `/proc/<pid>/fd`) and VmRSS; null once the process is gone. */
export function readProcess(pid: number): { descriptors: number; rssMb: number } | null {
  try {
    const descriptors = readdirSync(`/proc/${pid}/fd`).length;
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { descriptors, rssMb: match?.[1] ? Math.round(Number(match[1]) / 1024) : Number.NaN };
  } catch {
    return null;
  }
}

/** A process's command line ('' once it is gone): shows the sampled pid is the server itself, not a launcher. */
export function commandLineOf(pid: number): string {
  const file = `/proc/${pid}/cmdline`;
  return existsSync(file) ? readFileSync(file, 'utf8').replaceAll('\0', ' ').trim() : '';
}

/** Samples a process every `intervalMs`, tagging each sample with the phase `phase()` names at that moment. */
export class ProcessSampler {
  readonly samples: ProcessSample[] = [];
  /** Set when a sample found the process gone (it exited or was killed). */
  exitedAtSeconds: number | null = null;
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs: number,
    private readonly phase: () => string,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** Takes one sample now (also called by the timer); null when the process is gone. */
  sample(): ProcessSample | null {
    const seconds = Math.round((performance.now() - this.started) / 100) / 10;
    const reading = readProcess(this.pid);
    if (reading === null) {
      this.exitedAtSeconds ??= seconds;
      return null;
    }
    const sample = { seconds, phase: this.phase(), ...reading };
    this.samples.push(sample);
    return sample;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
