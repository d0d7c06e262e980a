import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useModal } from './use-modal.ts';

export type DialogTone = 'success' | 'error' | 'warning' | 'info';

/** A modal message with one button, announced to screen readers; Escape and the button close it. */
export function Dialog(props: { tone: DialogTone; title: string; children?: ReactNode; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const modal = useModal(props.onClose);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <dialog {...modal} role="alertdialog" aria-labelledby={titleId} className={`dialog dialog-${props.tone}`}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children && <div className="dialog-body">{props.children}</div>}
      <button ref={button} type="button" className="button primary" onClick={props.onClose}>
        {t('dialog.ok')}
      </button>
    </dialog>
  );
}
