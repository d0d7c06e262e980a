import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useModal } from './use-modal.ts';

/** A scrollable modal for long content (legal texts), closed by its button, Escape or the backdrop. */
export function Modal(props: { label: string; children: ReactNode; onClose: () => void }) {
  const { t } = useTranslation();
  const labelId = useId();
  const modal = useModal(props.onClose);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <dialog
      {...modal}
      aria-labelledby={labelId}
      className="modal"
      // A click on the backdrop lands on the dialog element itself.
      onClick={(event) => event.target === event.currentTarget && props.onClose()}
    >
      <div className="modal-body">{props.children}</div>
      <div className="modal-actions">
        <span id={labelId} hidden>
          {props.label}
        </span>
        <button ref={close} type="button" className="button primary" onClick={props.onClose}>
          {t('dialog.close')}
        </button>
      </div>
    </dialog>
  );
}
