import { useEffect, useState } from 'preact/hooks';

const SHOWN_MS = 4_000;

/**
 * Copies `text` to the clipboard and says so; when the browser refuses (no permission, not a secure context), it
 * says to select and copy by hand instead of failing silently.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<'copied' | 'refused' | null>(null);
  useEffect(() => {
    if (outcome === null) return;
    const timer = setTimeout(() => setOutcome(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome('copied');
    } catch {
      setOutcome('refused');
    }
  };
  return (
    <span class="copy-button">
      <button type="button" class="button button--small" onClick={() => void copy()}>
        {label}
      </button>
      <span class="copy-button__status small muted" role="status">
        {outcome === 'copied' ? 'Copied' : null}
        {outcome === 'refused' ? 'The browser refused the clipboard: select the text and copy it.' : null}
      </span>
    </span>
  );
}
