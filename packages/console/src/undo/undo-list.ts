import { useEffect, useState } from 'preact/hooks';
import { type ConsoleError, toConsoleError } from '../api/console-error.js';

/** How long the toast of a done action offers Undo before it goes away by itself. */
export const UNDO_OFFER_MS = 10_000;

/** One action that went through and can be undone, as the toasts show it. */
export interface UndoableEntry {
  /** Names what the action is about (`forget-memory:<id>`); one entry per key. */
  key: string;
  /** What the toast says (`Forgot "Deploys go out on Tuesdays"`). */
  label: string;
  status: 'done' | 'undoing' | 'undone' | 'failed';
  error?: ConsoleError;
}

/** What to offer: the action was already sent; `undo` reverses it (memories/restore for a forget). */
export interface UndoableAction {
  key: string;
  label: string;
  undo: () => Promise<unknown>;
  /** Called once the undo was sent, whether it succeeded or not (a page reloads its list). */
  onUndone?: () => void;
}

const entries = new Map<string, UndoableEntry>();
const actions = new Map<string, UndoableAction>();
const expiries = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();

/** (Re)starts the time after which an entry's toast goes away by itself. */
function expireLater(key: string): void {
  clearTimeout(expiries.get(key));
  expiries.set(
    key,
    setTimeout(() => dismissUndo(key), UNDO_OFFER_MS),
  );
}

function publish(): void {
  for (const listener of listeners) listener();
}

function update(key: string, patch: Partial<UndoableEntry>): void {
  const entry = entries.get(key);
  if (entry === undefined) return;
  entries.set(key, { ...entry, ...patch });
  publish();
}

/**
 * Offers Undo for an action that already went through (a forget: the memory is soft-deleted at once). The list lives
 * outside the pages: moving to another page keeps the toast and its Undo.
 */
export function offerUndo(action: UndoableAction): void {
  actions.set(action.key, action);
  entries.set(action.key, { key: action.key, label: action.label, status: 'done' });
  expireLater(action.key);
  publish();
}

/** Sends the undo of an offered action. */
export async function undoAction(key: string): Promise<void> {
  const action = actions.get(key);
  if (action === undefined || entries.get(key)?.status !== 'done') return;
  clearTimeout(expiries.get(key));
  update(key, { status: 'undoing' });
  try {
    await action.undo();
    update(key, { status: 'undone' });
    expireLater(key);
  } catch (error) {
    update(key, { status: 'failed', error: toConsoleError(error) });
  }
  action.onUndone?.();
}

/** Removes an entry (its toast's Dismiss button, or its time is up). */
export function dismissUndo(key: string): void {
  if (entries.get(key)?.status === 'undoing') return;
  clearTimeout(expiries.get(key));
  expiries.delete(key);
  entries.delete(key);
  actions.delete(key);
  publish();
}

/** Forgets every offer (on Sign out: the undo would run with the next credentials). */
export function clearUndo(): void {
  for (const timer of expiries.values()) clearTimeout(timer);
  expiries.clear();
  entries.clear();
  actions.clear();
  publish();
}

/** The offered actions, re-rendering when they change. */
export function useUndoList(): UndoableEntry[] {
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
