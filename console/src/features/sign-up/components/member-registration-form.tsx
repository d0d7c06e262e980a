import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { MemberRegistration, MemberSelfRegistration, memberTitles } from '@portal/contracts/rules/registration';
import { AddressFields } from '../../../components/form/address-fields.tsx';
import { ProvinceLoadFailure } from '../../../components/form/province-load-failure.tsx';
import { useCreateMember } from '../api/create-member.ts';
import { useRegisterMember } from '../api/register-member.ts';
import { ConsentField } from './consent-field.tsx';
import { emptyForm } from './empty-form.ts';
import { PersonalFields } from './personal-fields.tsx';
import { useRegistrationOutcome } from './registration-outcome.tsx';

type Values = z.input<typeof MemberSelfRegistration>;

const empty: Values = emptyForm(MemberSelfRegistration);

/**
 * Member registration (/register, spec 000 sections 2, 5 and 8), and the same form for an admin
 * creating a member (/addemployee: no consent asked, approved at once, the form starts again).
 * The rules are the server's own (events/rules/registration): checked on input and again on
 * submit, which stops on any error.
 */
export function MemberRegistrationForm({ kind = 'self' }: { kind?: 'self' | 'employee' }) {
  const { t } = useTranslation();
  const employee = kind === 'employee';
  const form = useForm<Values, unknown, z.output<typeof MemberSelfRegistration>>({
    // The employee form has no consent checkbox; its rule set simply lacks that field.
    resolver: zodResolver(employee ? (MemberRegistration as typeof MemberSelfRegistration) : MemberSelfRegistration),
    mode: 'onChange',
    defaultValues: employee ? { ...empty, acceptTerms: undefined } : empty,
  });
  const selfRegister = useRegisterMember();
  const create = useCreateMember();
  const register = employee ? create : selfRegister;
  const outcome = useRegistrationOutcome(
    form.setError,
    t('dialog.noServer'),
    employee ? { title: t('rules::employee.created'), then: () => form.reset() } : undefined,
  );

  const submit = form.handleSubmit((values) =>
    register.mutate(values, { onSuccess: outcome.succeeded, onError: outcome.failed }),
  );

  return (
    <FormProvider {...form}>
      <form className="card form-card" onSubmit={submit} noValidate>
        <h1>{t(employee ? 'screen.addemployee' : 'screen.register')}</h1>
        <PersonalFields titles={memberTitles} nameRequired={false} />
        <AddressFields prefix="personal" />
        {!employee && <ConsentField />}
        <button type="submit" className="button primary" disabled={register.isPending}>
          {register.isPending && <span className="button-spinner" aria-hidden="true" />}
          {register.isPending ? t('form.sending') : t(employee ? 'employee.submit' : 'register.submit')}
        </button>
        {!employee && (
          <p className="form-footer">
            <Link to="/">{t('register.haveAccount')}</Link>
          </p>
        )}
      </form>
      {register.isPending && (
        <div className="overlay" role="status" aria-live="polite">
          <div className="dialog">
            <div className="spinner" />
            <p>{t('form.sending')}</p>
          </div>
        </div>
      )}
      <ProvinceLoadFailure />
      {outcome.dialog}
    </FormProvider>
  );
}
