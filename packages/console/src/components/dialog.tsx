import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

/**
 * A modal on the native `<dialog>`: the browser keeps focus inside, Escape closes it, and focus returns to the
 * button that opened it. The content is rendered only while open, so forms inside start fresh.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class={wide ? 'dialog dialog--wide' : 'dialog'} aria-labelledby={titleId} onClose={onClose}>
      {open ? (
        <>
          <header class="dialog__header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" class="button button--quiet" onClick={onClose}>
              Close
            </button>
          </header>
          <div class="dialog__body">{children}</div>
        </>
      ) : null}
    </dialog>
  );
}
