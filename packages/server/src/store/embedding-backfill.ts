import type { Database } from './database.js';

/** The persisted state of one scope's backfill of one model. */
export interface BackfillRow {
  paused: number;
  cursor_seq: number;
  last_run_at: string | null;
  last_error: string | null;
  updated_at: string;
}

/** What one backfill run records. */
export interface BackfillRun {
  /** The last memory `seq` the run reached (the next run starts after it). */
  cursorSeq: number;
  embedded: number;
  failed: number;
  lastError: string | null;
  now: Date;
}

/** The backfill state of a scope (its key) and model, if any was saved. */
export function readBackfillState(
  database: Database,
  scopeKey: string,
  modelId: string,
): Promise<BackfillRow | undefined> {
  return database.get<BackfillRow>(
    'SELECT paused, cursor_seq, last_run_at, last_error, updated_at FROM embedding_backfill WHERE scope_key = ? AND model_id = ?',
    [scopeKey, modelId],
  );
}

/** Saves whether the backfill of a scope and model is paused. */
export async function saveBackfillPaused(
  database: Database,
  scopeKey: string,
  modelId: string,
  paused: boolean,
  now: Date,
): Promise<void> {
  await database.run(
    `INSERT INTO embedding_backfill (scope_key, model_id, paused, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope_key, model_id) DO UPDATE SET paused = excluded.paused, updated_at = excluded.updated_at`,
    [scopeKey, modelId, paused ? 1 : 0, now.toISOString()],
  );
}

/** Records a run: its cursor, its counts added to the totals, its time and its last error. */
export async function recordBackfillRun(
  database: Database,
  scopeKey: string,
  modelId: string,
  run: BackfillRun,
): Promise<void> {
  await database.run(
    `INSERT INTO embedding_backfill (scope_key, model_id, paused, cursor_seq, processed, failed, last_run_at, last_error,
       updated_at) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (scope_key, model_id) DO UPDATE SET cursor_seq = excluded.cursor_seq,
       processed = processed + excluded.processed, failed = failed + excluded.failed,
       last_run_at = excluded.last_run_at, last_error = excluded.last_error, updated_at = excluded.updated_at`,
    [
      scopeKey,
      modelId,
      run.cursorSeq,
      run.embedded,
      run.failed,
      run.now.toISOString(),
      run.lastError,
      run.now.toISOString(),
    ],
  );
}
