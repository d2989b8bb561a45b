/** What the capture replay did, summed over conversations. */
export interface CaptureCounts {
  /** Memories capture stored. */
  stored: number;
  /** Of those, assistant replies the next user message accepted (`Assistant (accepted): …`). */
  accepted: number;
  /** User messages capture stored nothing of (questions, requests, filler, nothing stated) and found no duplicate in. */
  leftOut: number;
  /** Candidates capture left out as already remembered. */
  duplicates: number;
  /** Model calls, one per user message. */
  calls: number;
  /** User messages the model answered nothing to (the same speaker went on, or the session ended). */
  unanswered: number;
  /** Calls after which capture reported nothing (a repeated turn key, or a failure). */
  uncaptured: number;
  /** Stored memories that no turn of their call holds (`turnOfMemory`): never credited to a turn. */
  unmapped: number;
  /** Failures the middleware reported, by operation. */
  errors: Record<string, number>;
  /** Time spent replaying (model calls and waiting for capture), in milliseconds. */
  replayMs: number;
}

/** Counts at zero. */
export function emptyCaptureCounts(): CaptureCounts {
  return {
    stored: 0,
    accepted: 0,
    leftOut: 0,
    duplicates: 0,
    calls: 0,
    unanswered: 0,
    uncaptured: 0,
    unmapped: 0,
    errors: {},
    replayMs: 0,
  };
}
