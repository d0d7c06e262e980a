import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { EmailForm } from '@portal/contracts/rules/outreach';
import { Field } from '../../../components/form/field.tsx';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { useNotice } from '../../../components/ui/use-notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { useSendEmail } from '../api/send-email.ts';

type Values = z.input<typeof EmailForm>;
const blank: Values = { to: '', subject: '', message: '' };

/**
 * Send e-mail (/sendemail, spec 001 sections 2.12, 5 and 8): to, subject and message, all
 * required, with the sender's card. Sent through the portal's SMTP server, or kept in the outbox
 * when none is set up; the answer says which.
 */
export function SendEmailPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const form = useForm<Values>({ resolver: zodResolver(EmailForm), defaultValues: blank });
  const send = useSendEmail();
  const notice = useNotice();
  const error = (field: keyof Values) => form.formState.errors[field]?.message;

  const submit = form.handleSubmit(
    async (values) => {
      try {
        const answer = await send.mutateAsync(EmailForm.parse(values));
        notice.show({ tone: answer.transport === 'outbox' ? 'info' : 'success', title: answer.message });
        form.reset(blank);
      } catch (failure) {
        notice.show({
          tone: 'error',
          title: t('rules::email.failedTitle'),
          message:
            failure instanceof ApiError && failure.body.message ? failure.body.message : t('rules::email.failed'),
        });
      }
    },
    (errors) => {
      const missing = Object.values(errors).some((e) => e?.message?.endsWith('Required'));
      notice.show(
        missing
          ? { tone: 'warning', title: t('rules::email.incompleteTitle'), message: t('rules::email.incomplete') }
          : { tone: 'warning', title: t('rules::email.toInvalid') },
      );
    },
  );

  return (
    <div className="email-layout">
      <section className="card sender-card" aria-labelledby="sender-title">
        <h2 id="sender-title">{t('email.sender')}</h2>
        <div className="sender">
          <Avatar src={null} name={user?.fullName || user?.username || '?'} />
          <div>
            <strong data-testid="sender-name">{user?.fullName || user?.username}</strong>
            <p className="muted">
              {t('nav.role')}: {user?.role}
            </p>
          </div>
        </div>
      </section>
      <form className="card form-card" onSubmit={submit} noValidate aria-labelledby="email-title">
        <h1 id="email-title">{t('screen.sendemail')}</h1>
        <Field label={t('email.to')} required error={error('to')}>
          <input type="email" autoComplete="email" {...form.register('to')} />
        </Field>
        <Field label={t('email.subject')} required error={error('subject')}>
          <input {...form.register('subject')} />
        </Field>
        <Field label={t('email.message')} required error={error('message')}>
          <textarea rows={8} {...form.register('message')} />
        </Field>
        <button type="submit" className="button primary" disabled={send.isPending}>
          {send.isPending ? t('email.sending') : t('email.send')}
        </button>
      </form>
      {notice.dialog}
    </div>
  );
}
