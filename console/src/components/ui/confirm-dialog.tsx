import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** Asks before an action: Confirm or Cancel (Escape cancels). */
export function ConfirmDialog(props: {
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  confirmLabel?: string;
  cancelLabel?: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div className="overlay" onKeyDown={(event) => event.key === 'Escape' && props.onCancel()}>
      <div role="alertdialog" aria-modal="true" aria-labelledby={titleId} className="dialog dialog-info">
        <h2 id={titleId}>{props.title}</h2>
        {props.children && <div className="dialog-body">{props.children}</div>}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={props.onCancel}>
            {props.cancelLabel ?? t('dialog.cancel')}
          </button>
          <button ref={confirm} type="button" className="button primary" onClick={props.onConfirm}>
            {props.confirmLabel ?? t('dialog.confirm')}
          </button>
        </div>
      </div>
    </div>
  );
}
