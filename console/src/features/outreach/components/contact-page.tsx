import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { ContactForm } from '@portal/contracts/rules/outreach';
import { Field } from '../../../components/form/field.tsx';
import { useNotice } from '../../../components/ui/use-notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { useSendContact } from '../api/send-contact.ts';

type Values = z.input<typeof ContactForm>;

/**
 * Contact (/contact, spec 001 sections 2.8, 5 and 8): name, e-mail, an optional subject and a
 * message, checked as the server checks them; really sent, and read by admins in the inbox.
 */
export function ContactPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const blank: Values = { name: user?.fullName ?? '', email: '', subject: '', message: '' };
  const form = useForm<Values>({ resolver: zodResolver(ContactForm), defaultValues: blank });
  const send = useSendContact();
  const notice = useNotice();
  const error = (field: keyof Values) => form.formState.errors[field]?.message;

  const submit = form.handleSubmit(
    async (values) => {
      try {
        await send.mutateAsync(ContactForm.parse(values));
        notice.show({ tone: 'success', title: t('rules::contact.sent') });
        form.reset(blank);
      } catch (failure) {
        const fields = failure instanceof ApiError ? failure.body.errors : undefined;
        for (const [field, message] of Object.entries(fields ?? {})) {
          form.setError(field as keyof Values, { message });
        }
        notice.show({
          tone: 'error',
          title: t('rules::contact.failedTitle'),
          message:
            failure instanceof ApiError && failure.body.message ? failure.body.message : t('rules::contact.failed'),
        });
      }
    },
    () => notice.show({ tone: 'error', title: t('rules::contact.failedTitle'), message: t('rules::contact.invalid') }),
  );

  return (
    <div className="contact-layout">
      <form className="card form-card" onSubmit={submit} noValidate aria-labelledby="contact-title">
        <h1 id="contact-title">{t('contact.title')}</h1>
        <p className="muted">{t('contact.intro')}</p>
        <div className="field-row">
          <Field label={t('contact.name')} required error={error('name')}>
            <input autoComplete="name" {...form.register('name')} />
          </Field>
          <Field label={t('contact.email')} required error={error('email')}>
            <input type="email" autoComplete="email" {...form.register('email')} />
          </Field>
        </div>
        <Field label={t('contact.subject')} error={error('subject')} hint={t('contact.subjectHint')}>
          <input {...form.register('subject')} />
        </Field>
        <Field label={t('contact.message')} required error={error('message')} hint={t('contact.messageHint')}>
          <textarea rows={6} {...form.register('message')} />
        </Field>
        <button type="submit" className="button primary" disabled={send.isPending}>
          {send.isPending ? t('contact.sending') : t('contact.send')}
        </button>
      </form>
      <aside className="card contact-info" aria-labelledby="contact-info-title">
        <h2 id="contact-info-title">{t('contact.infoTitle')}</h2>
        <p>{t('help.hours')}</p>
        <p>{t('help.response')}</p>
        <Link to="/helpcenter">{t('screen.helpcenter')}</Link>
      </aside>
      {notice.dialog}
    </div>
  );
}
