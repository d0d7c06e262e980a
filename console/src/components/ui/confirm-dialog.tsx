import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useModal } from './use-modal.ts';

/**
 * Asks before an action: Confirm or Cancel (Escape cancels, focus stays inside). A `destructive`
 * action (delete, erase, void, cancel a round) has a red confirm button and starts on Cancel,
 * so Enter never destroys by accident.
 */
export function ConfirmDialog(props: {
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const modal = useModal(props.onCancel);
  const cancel = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => (props.destructive ? cancel : confirm).current?.focus(), [props.destructive]);
  return (
    <dialog {...modal} role="alertdialog" aria-labelledby={titleId} className="dialog dialog-info">
      <h2 id={titleId}>{props.title}</h2>
      {props.children && <div className="dialog-body">{props.children}</div>}
      <div className="dialog-actions">
        <button ref={cancel} type="button" className="button" onClick={props.onCancel}>
          {props.cancelLabel ?? t('dialog.cancel')}
        </button>
        <button
          ref={confirm}
          type="button"
          className={props.destructive ? 'button destructive' : 'button primary'}
          onClick={props.onConfirm}
        >
          {props.confirmLabel ?? t('dialog.confirm')}
        </button>
      </div>
    </dialog>
  );
}
