import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { PartnerRegistration, partnerTitles } from '@portal/contracts/rules/registration';
import { AddressFields } from '../../../components/form/address-fields.tsx';
import { Field } from '../../../components/form/field.tsx';
import { ProvinceLoadFailure } from '../../../components/form/province-load-failure.tsx';
import { useRegisterPartner } from '../api/register-partner.ts';
import { ConsentField } from './consent-field.tsx';
import { emptyForm } from './empty-form.ts';
import { PersonalFields } from './personal-fields.tsx';
import { useRegistrationOutcome } from './registration-outcome.tsx';

type Values = z.input<typeof PartnerRegistration>;

const empty: Values = emptyForm(PartnerRegistration);

/**
 * Partner registration (/registeradmin, spec 000 sections 2, 5 and 8): personal and company data,
 * every starred field required, the server's rules checked on input and on submit.
 */
export function PartnerRegistrationForm() {
  const { t } = useTranslation();
  const form = useForm<Values, unknown, z.output<typeof PartnerRegistration>>({
    resolver: zodResolver(PartnerRegistration),
    mode: 'onChange',
    defaultValues: empty,
  });
  const register = useRegisterPartner();
  const outcome = useRegistrationOutcome(form.setError, t('rules::register.unavailable'));
  const error = (field: keyof Values) => form.formState.errors[field]?.message;

  // The whole form is posted, the chosen places' ids included (the schema leaves them out).
  const submit = form.handleSubmit((values) =>
    register.mutate({ ...form.getValues(), ...values }, { onSuccess: outcome.succeeded, onError: outcome.failed }),
  );

  return (
    <FormProvider {...form}>
      <form className="card form-card" onSubmit={submit} noValidate>
        <h1>{t('screen.registeradmin')}</h1>
        <fieldset>
          <legend>{t('partner.personalSection')}</legend>
          <PersonalFields titles={partnerTitles} nameRequired />
          <AddressFields prefix="personal" required withIds />
        </fieldset>
        <fieldset>
          <legend>{t('partner.companySection')}</legend>
          <Field label={t('partner.companyName')} required error={error('companyName')}>
            <input autoComplete="organization" {...form.register('companyName')} />
          </Field>
          <Field label={t('partner.companyTaxId')} required error={error('companyTaxId')}>
            <input inputMode="numeric" maxLength={13} {...form.register('companyTaxId')} />
          </Field>
          <div className="field-row">
            <Field label={t('partner.companyPhone')} required error={error('companyPhone')}>
              <input inputMode="tel" maxLength={10} {...form.register('companyPhone')} />
            </Field>
            <Field label={t('partner.companyEmail')} required error={error('companyEmail')}>
              <input type="email" {...form.register('companyEmail')} />
            </Field>
          </div>
          <AddressFields prefix="company" required withIds />
          <div className="field-row">
            <Field label={t('partner.latitude')} required error={error('shopLatitude')}>
              <input inputMode="decimal" placeholder="13.7563" {...form.register('shopLatitude')} />
            </Field>
            <Field label={t('partner.longitude')} required error={error('shopLongitude')}>
              <input inputMode="decimal" placeholder="100.5018" {...form.register('shopLongitude')} />
            </Field>
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('partner.documentsSection')}</legend>
          <p className="muted">{t('partner.documentsNone')}</p>
        </fieldset>
        <ConsentField />
        <button type="submit" className="button primary" disabled={register.isPending}>
          {register.isPending && <span className="button-spinner" aria-hidden="true" />}
          {register.isPending ? t('form.sending') : t('register.submit')}
        </button>
        <p className="form-footer">
          <Link to="/">{t('register.haveAccount')}</Link>
        </p>
      </form>
      <ProvinceLoadFailure />
      {outcome.dialog}
    </FormProvider>
  );
}
