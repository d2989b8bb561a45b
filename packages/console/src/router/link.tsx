import type { ComponentChildren, TargetedMouseEvent } from 'preact';
import { navigate } from './router.js';

interface LinkProps {
  href: string;
  children: ComponentChildren;
  class?: string;
  'aria-current'?: 'page' | undefined;
}

/** A real link (keyboard, middle click, copy address all work) that moves inside the console without a reload. */
export function Link({ href, children, ...rest }: LinkProps) {
  const follow = (event: TargetedMouseEvent<HTMLAnchorElement>) => {
    const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0;
    if (event.defaultPrevented || modified) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={follow} {...rest}>
      {children}
    </a>
  );
}
