import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { PasswordSetByLink } from '@portal/contracts/rules/profile';
import type { z } from 'zod';
import { Field } from '../../../components/form/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSetPassword } from '../api/set-password.ts';

type Values = z.input<typeof PasswordSetByLink>;

/**
 * Setting one's password from the link an administrator had e-mailed (an account they created or
 * imported): the new password twice. The link works once; a used or expired one says so.
 */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Read once, then taken out of the address bar (and so out of the referrer of what follows).
  const [token] = useState(() => params.get('token') ?? '');
  useEffect(() => {
    if (window.location.search) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);
  const form = useForm<Values>({
    resolver: zodResolver(PasswordSetByLink),
    defaultValues: { token, newPassword: '', confirmNewPassword: '' },
  });
  const save = useSetPassword();
  const [done, setDone] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const error = (field: keyof Values) => form.formState.errors[field]?.message;
  const submit = form.handleSubmit(async (values) => {
    setRefused(null);
    try {
      setDone((await save.mutateAsync(values as PasswordSetByLink)).message);
    } catch (failure) {
      // The server's word on the link itself (used, expired, not its own) before its general one.
      const errors = failure instanceof ApiError ? (failure.body as { errors?: Record<string, string> }).errors : null;
      setRefused(errors?.token ?? (failure instanceof ApiError ? failure.message : t('setPassword.failed')));
    }
  });
  if (done) {
    return (
      <section className="card form-card" role="status">
        <h1>{t('setPassword.title')}</h1>
        <p>{done}</p>
        <Link className="button primary" to="/login">
          {t('setPassword.signIn')}
        </Link>
      </section>
    );
  }
  return (
    <form className="card form-card" onSubmit={(event) => void submit(event)} noValidate>
      <h1>{t('setPassword.title')}</h1>
      {(refused || error('token')) && (
        <p className="error" role="alert">
          {refused ?? t(`rules::${error('token')}`)}
        </p>
      )}
      <Field label={t('settings.newPassword')} required error={error('newPassword')} hint={t('settings.passwordHint')}>
        <input type="password" autoComplete="new-password" {...form.register('newPassword')} />
      </Field>
      <Field label={t('settings.confirmPassword')} required error={error('confirmNewPassword')}>
        <input type="password" autoComplete="new-password" {...form.register('confirmNewPassword')} />
      </Field>
      <button type="submit" className="button primary" disabled={save.isPending}>
        {t('setPassword.save')}
      </button>
    </form>
  );
}
