import type * as FocusTrapModule from 'focus-trap';
import type { FocusTrap } from 'focus-trap';
import { type SyntheticEvent, useEffect, useRef } from 'react';

/** focus-trap, loaded when a dialog first opens: the sign-in page does not carry it until then. */
let focusTrap: Promise<typeof FocusTrapModule> | undefined;
const loadFocusTrap = () => (focusTrap ??= import('focus-trap'));

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
    // showModal makes the rest of the page inert at once; the trap keeps Tab inside once loaded.
    if (!dialog.open) dialog.showModal();
    let trap: FocusTrap | undefined;
    let closed = false;
    void loadFocusTrap().then(({ createFocusTrap }) => {
      if (closed) return;
      trap = createFocusTrap(dialog, {
        initialFocus: false, // the dialog focuses its own safe choice
        escapeDeactivates: false, // Escape is the dialog's cancel, below
        allowOutsideClick: true,
        fallbackFocus: dialog,
        returnFocusOnDeactivate: false,
      }).activate();
    });
    return () => {
      closed = true;
      trap?.deactivate();
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
