import { type ReactElement, cloneElement, useId } from 'react';
import { useTranslation } from 'react-i18next';

/** A rule's message key is translated; a message the server already translated is shown as it is. */
export function useFieldMessage() {
  const { t, i18n } = useTranslation();
  return (message: string | undefined) =>
    message && i18n.exists(message, { ns: 'rules' }) ? t(`rules::${message}`) : message;
}

type Control = ReactElement<{ id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }>;

/**
 * A labelled control with a star when required, an optional hint, and its error underneath; the
 * control gets its id, aria-invalid and aria-describedby (so screen readers read the error).
 */
export function Field(props: { label: string; required?: boolean; error?: string; hint?: string; children: Control }) {
  const id = useId();
  const message = useFieldMessage()(props.error);
  const note = message ?? props.hint;
  const control = cloneElement(props.children, {
    id,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': note ? `${id}-note` : undefined,
  });
  return (
    <div className={`field${message ? ' invalid' : ''}`}>
      <label htmlFor={id}>
        {props.label}
        {props.required && (
          <span className="star" aria-hidden="true">
            {' *'}
          </span>
        )}
      </label>
      {control}
      {note && (
        <small id={`${id}-note`} className={message ? 'field-error' : 'hint'} role={message ? 'alert' : undefined}>
          {note}
        </small>
      )}
    </div>
  );
}
