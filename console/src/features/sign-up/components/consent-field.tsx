import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { useFieldMessage } from '../../../components/form/field.tsx';
import { LegalTextView } from '../../../components/legal/legal-text.tsx';
import { privacy } from '../../../components/legal/privacy.ts';
import { terms } from '../../../components/legal/terms.ts';
import { Modal } from '../../../components/ui/modal.tsx';

/** The terms checkbox, with the terms of use and the privacy and consent text in modals. */
export function ConsentField() {
  const { t } = useTranslation();
  const form = useFormContext<{ acceptTerms: boolean }>();
  const [open, setOpen] = useState<'terms' | 'privacy' | null>(null);
  const error = useFieldMessage()(form.formState.errors.acceptTerms?.message);
  const link = (which: 'terms' | 'privacy') => (
    <button type="button" className="link-button" onClick={() => setOpen(which)} />
  );
  return (
    <>
      <div className={`field${error ? ' invalid' : ''}`}>
        <span className="checkbox">
          <input
            id="accept-terms"
            type="checkbox"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'accept-terms-error' : undefined}
            {...form.register('acceptTerms')}
          />
          <label htmlFor="accept-terms">
            <Trans i18nKey="register.consent" components={{ terms: link('terms'), privacy: link('privacy') }} />
          </label>
        </span>
        {error && (
          <small id="accept-terms-error" className="field-error" role="alert">
            {error}
          </small>
        )}
      </div>
      {open && (
        <Modal label={t(open === 'terms' ? 'screen.terms' : 'screen.policy')} onClose={() => setOpen(null)}>
          <LegalTextView text={open === 'terms' ? terms : privacy} headingLevel={2} />
        </Modal>
      )}
    </>
  );
}
