import { createFocusTrap } from 'focus-trap';
import { type SyntheticEvent, useEffect, useRef } from 'react';

/**
 * A native `<dialog>` opened as a modal: the rest of the page is inert, Tab and Shift+Tab cycle
 * inside it (focus-trap: the browser alone would let focus leave for its own toolbar), Escape
 * asks `onClose`, and focus returns where it was when it closes.
 */
export function useModal(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const trap = createFocusTrap(dialog, {
      initialFocus: false, // the dialog focuses its own safe choice
      escapeDeactivates: false, // Escape is the dialog's cancel, below
      allowOutsideClick: true,
      fallbackFocus: dialog,
      returnFocusOnDeactivate: false,
    }).activate();
    return () => {
      trap.deactivate();
      dialog.close();
      before?.focus();
    };
  }, []);
  return {
    ref,
    onCancel: (event: SyntheticEvent) => {
      event.preventDefault(); // the owner decides whether it closes
      onClose();
    },
  };
}
