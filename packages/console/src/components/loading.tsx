/** A loading state that screen readers announce; `label` says what is loading. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="loading__spinner" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}
