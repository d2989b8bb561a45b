/** A target beside what was measured. Benchmarks report; a missed target never fails the run. */
export interface TargetRow {
  part: string;
  memories: number | null;
  target: string;
  measured: string;
  verdict: 'met' | 'missed' | 'not measured';
}
