import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PasswordForm as PasswordRules } from '@portal/contracts/rules/profile';
import { Field, useFieldMessage } from '../../../components/form/field.tsx';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useChangePassword } from '../api/change-password.ts';
import { useConfirmedSave } from './use-confirmed-save.ts';

type Values = z.input<typeof PasswordRules>;

/** Change password: the current one, a new one of at least 6, and the same again. */
export function PasswordForm({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const form = useForm<Values>({
    resolver: zodResolver(PasswordRules),
    defaultValues: { currentPassword: '', newPassword: '', confirmNewPassword: '' },
  });
  const change = useChangePassword(accountId);
  const flow = useConfirmedSave(
    change.mutateAsync,
    {
      refused: t('rules::password.currentWrong'),
      error: t('settings.passwordError'),
    },
    form.setError,
  );
  const [banner, setBanner] = useState<string | null>(null);
  const clearBanner = useCallback(() => setBanner(null), []);
  const error = (field: keyof Values) => form.formState.errors[field]?.message;
  const submit = form.handleSubmit(flow.ask, (errors) =>
    setBanner(message(Object.values(errors)[0]?.message as string | undefined) ?? null),
  );

  return (
    <form className="card form-card" onSubmit={submit} noValidate>
      <h2>{t('settings.password')}</h2>
      <Banner message={banner} onDone={clearBanner} />
      <Field label={t('settings.currentPassword')} required error={error('currentPassword')}>
        <input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
      </Field>
      <div className="field-row">
        <Field
          label={t('settings.newPassword')}
          required
          error={error('newPassword')}
          hint={t('settings.passwordHint')}
        >
          <input type="password" autoComplete="new-password" {...form.register('newPassword')} />
        </Field>
        <Field label={t('settings.confirmPassword')} required error={error('confirmNewPassword')}>
          <input type="password" autoComplete="new-password" {...form.register('confirmNewPassword')} />
        </Field>
      </div>
      <button type="submit" className="button primary" disabled={change.isPending}>
        {change.isPending ? t('settings.saving') : t('settings.changePassword')}
      </button>
      {flow.pending && (
        <ConfirmDialog
          title={t('settings.confirmPassword.title')}
          onCancel={flow.cancel}
          onConfirm={() => void flow.confirm()}
        />
      )}
    </form>
  );
}
