import type { ComponentChildren } from 'preact';

/** The top of a page: its title (the shell moves focus here on navigation), one line on what it is for, actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ComponentChildren;
  actions?: ComponentChildren;
}) {
  return (
    <header class="page-header">
      <div>
        <h1 tabIndex={-1} data-page-title>
          {title}
        </h1>
        {description === undefined ? null : <p class="page-header__description">{description}</p>}
      </div>
      {actions === undefined ? null : <div class="page-header__actions">{actions}</div>}
    </header>
  );
}
