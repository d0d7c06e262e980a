import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/form/field.tsx';

type Personal = Record<
  'username' | 'password' | 'title' | 'fullName' | 'personalId' | 'personalPhone' | 'personalEmail',
  string
>;

/**
 * The person's own fields, the same on the member and the partner form: username, password,
 * title, full name, national id (13 digits at most), phone (10) and e-mail. Title and full name
 * are starred on the partner form only (spec 000 section 5).
 */
export function PersonalFields({ titles, nameRequired }: { titles: readonly string[]; nameRequired: boolean }) {
  const { t } = useTranslation();
  const form = useFormContext<Personal>();
  const error = (field: keyof Personal) => form.formState.errors[field]?.message;
  return (
    <>
      <div className="field-row">
        <Field label={t('login.username')} required error={error('username')}>
          <input autoComplete="username" minLength={6} {...form.register('username')} />
        </Field>
        <Field label={t('login.password')} required error={error('password')} hint={t('form.passwordHint')}>
          <input type="password" autoComplete="new-password" minLength={8} {...form.register('password')} />
        </Field>
      </div>
      <div className="field-row">
        <Field label={t('form.title')} required={nameRequired} error={error('title')}>
          <select {...form.register('title')}>
            <option value="">{t('form.chooseTitle')}</option>
            {titles.map((title) => (
              <option key={title}>{title}</option>
            ))}
          </select>
        </Field>
        <Field label={t('form.fullName')} required={nameRequired} error={error('fullName')}>
          <input autoComplete="name" {...form.register('fullName')} />
        </Field>
      </div>
      <Field label={t('form.personalId')} required error={error('personalId')}>
        <input inputMode="numeric" maxLength={13} {...form.register('personalId')} />
      </Field>
      <div className="field-row">
        <Field label={t('form.phone')} required error={error('personalPhone')}>
          <input inputMode="tel" maxLength={10} autoComplete="tel" {...form.register('personalPhone')} />
        </Field>
        <Field label={t('form.email')} required error={error('personalEmail')}>
          <input type="email" autoComplete="email" {...form.register('personalEmail')} />
        </Field>
      </div>
    </>
  );
}
