import { useEffect, useState } from 'preact/hooks';
import { type ConsoleError, toConsoleError } from '../api/console-error.js';

/** How long an undoable action waits before it is sent. */
export const UNDO_WINDOW_MS = 5_000;

/** One action in the queue, as the toasts and pages show it. */
export interface UndoableEntry {
  /** Names what the action is about (`memory:<id>`); one entry per key. */
  key: string;
  /** What the toast says (`Forget "Deploys go out on Tuesdays"`). */
  label: string;
  /** Epoch milliseconds at which the action is sent. */
  dueAt: number;
  status: 'waiting' | 'sending' | 'done' | 'failed';
  error?: ConsoleError;
}

/** What to schedule: the action runs after the window unless `undoUndoable(key)` comes first. */
export interface UndoableAction {
  key: string;
  label: string;
  commit: () => Promise<unknown>;
  /** Called once the action was sent, whether it succeeded or not (a page reloads its list). */
  onSettled?: () => void;
  delayMs?: number;
}

const entries = new Map<string, UndoableEntry>();
const timers = new Map<string, { timer: ReturnType<typeof setTimeout>; action: UndoableAction }>();
const listeners = new Set<() => void>();

function publish(): void {
  for (const listener of listeners) listener();
}

function update(key: string, patch: Partial<UndoableEntry>): void {
  const entry = entries.get(key);
  if (entry === undefined) return;
  entries.set(key, { ...entry, ...patch });
  publish();
}

// Closing the tab while an action waits would drop it: the browser asks first.
function warnBeforeUnload(event: BeforeUnloadEvent): void {
  if (timers.size > 0) event.preventDefault();
}

async function send(key: string): Promise<void> {
  const pending = timers.get(key);
  if (pending === undefined) return;
  clearTimeout(pending.timer);
  timers.delete(key);
  if (timers.size === 0) window.removeEventListener('beforeunload', warnBeforeUnload);
  update(key, { status: 'sending' });
  try {
    await pending.action.commit();
    update(key, { status: 'done' });
  } catch (error) {
    update(key, { status: 'failed', error: toConsoleError(error) });
  }
  pending.action.onSettled?.();
}

/**
 * Schedules an action that can be undone for `UNDO_WINDOW_MS`: it is only sent when the window ends. The API has
 * no restore for a soft delete, so this is how the console offers Undo. The queue lives outside the pages: moving
 * to another page does not cancel or lose an action.
 */
export function scheduleUndoable(action: UndoableAction): void {
  const { key, label, delayMs = UNDO_WINDOW_MS } = action;
  if (timers.has(key)) return;
  entries.set(key, { key, label, dueAt: Date.now() + delayMs, status: 'waiting' });
  const timer = setTimeout(() => void send(key), delayMs);
  timers.set(key, { timer, action });
  window.addEventListener('beforeunload', warnBeforeUnload);
  publish();
}

/** Cancels a waiting action; returns whether there was one to cancel. */
export function undoUndoable(key: string): boolean {
  const pending = timers.get(key);
  if (pending === undefined) return false;
  clearTimeout(pending.timer);
  timers.delete(key);
  entries.delete(key);
  if (timers.size === 0) window.removeEventListener('beforeunload', warnBeforeUnload);
  publish();
  return true;
}

/** Sends every waiting action now (before signing out). */
export async function flushUndoable(): Promise<void> {
  await Promise.all([...timers.keys()].map((key) => send(key)));
}

/** Removes a finished entry (its toast's Dismiss button). */
export function dismissUndoable(key: string): void {
  const entry = entries.get(key);
  if (entry === undefined || entry.status === 'waiting' || entry.status === 'sending') return;
  entries.delete(key);
  publish();
}

/** The queue's entries, re-rendering when they change. */
export function useUndoQueue(): UndoableEntry[] {
  const [snapshot, setSnapshot] = useState(() => [...entries.values()]);
  useEffect(() => {
    const listener = () => setSnapshot([...entries.values()]);
    listeners.add(listener);
    listener();
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return snapshot;
}
