import type { ComponentChildren } from 'preact';

/** What a page shows when there is nothing to list: what is missing and how to get some. */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty-state">
      <p class="empty-state__title">{title}</p>
      {children === undefined ? null : <div class="empty-state__body">{children}</div>}
    </div>
  );
}
