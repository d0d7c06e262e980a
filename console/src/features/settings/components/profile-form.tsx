import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { partnerTitles } from '@portal/contracts/rules/registration';
import { ProfileUpdate } from '@portal/contracts/rules/profile';
import type { AccountView } from '@portal/contracts/views/account';
import { AddressFields } from '../../../components/form/address-fields.tsx';
import { Field, useFieldMessage } from '../../../components/form/field.tsx';
import { ProvinceLoadFailure } from '../../../components/form/province-load-failure.tsx';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useSaveProfile } from '../api/save-profile.ts';
import { ProfilePhoto } from './profile-photo.tsx';
import { useConfirmedSave } from './use-confirmed-save.ts';

type Values = z.input<typeof ProfileUpdate>;

const valuesOf = (member: AccountView): Values => ({
  title: (partnerTitles as readonly string[]).includes(member.title) ? (member.title as Values['title']) : '',
  fullName: member.fullName,
  personalPhone: member.personalPhone,
  personalEmail: member.personalEmail,
  personalAddress: member.personalAddress,
  personalProvince: member.personalProvince,
  personalDistrict: member.personalDistrict,
  personalSubdistrict: member.personalSubdistrict,
  personalPostalCode: member.personalPostalCode,
  profile_img: member.profile_img,
});

/** The personal information form with the photo; national id and username are shown, not edited. */
export function ProfileForm({ member }: { member: AccountView }) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const form = useForm<Values, unknown, z.output<typeof ProfileUpdate>>({
    resolver: zodResolver(ProfileUpdate),
    mode: 'onChange',
    values: valuesOf(member),
    resetOptions: { keepDirtyValues: true },
  });
  const save = useSaveProfile(member._id);
  const flow = useConfirmedSave(
    save.mutateAsync,
    {
      refused: t('settings.profileFailed'),
      error: t('settings.profileError'),
    },
    form.setError,
  );
  const [banner, setBanner] = useState<string | null>(null);
  const clearBanner = useCallback(() => setBanner(null), []);
  const error = (field: keyof Values) => form.formState.errors[field]?.message;

  const submit = form.handleSubmit(flow.ask, (errors) => {
    const first = Object.values(errors)[0]?.message;
    setBanner(message(first as string | undefined) ?? null);
  });

  return (
    <FormProvider {...form}>
      <form className="card form-card" onSubmit={submit} noValidate>
        <h2>{t('settings.profile')}</h2>
        <Banner message={banner} onDone={clearBanner} />
        <ProfilePhoto accountId={member._id} />
        <div className="field-row">
          <Field label={t('login.username')}>
            <input value={member.username} readOnly />
          </Field>
          <Field label={t('form.personalId')} hint={t('settings.idReadOnly')}>
            <input value={member.personalId} readOnly />
          </Field>
        </div>
        <div className="field-row">
          <Field label={t('form.title')} error={error('title')}>
            <select {...form.register('title')}>
              <option value="">{t('form.chooseTitle')}</option>
              {partnerTitles.map((title) => (
                <option key={title}>{title}</option>
              ))}
            </select>
          </Field>
          <Field label={t('form.fullName')} required error={error('fullName')}>
            <input autoComplete="name" {...form.register('fullName')} />
          </Field>
        </div>
        <div className="field-row">
          <Field label={t('form.phone')} required error={error('personalPhone')}>
            <input inputMode="tel" maxLength={10} {...form.register('personalPhone')} />
          </Field>
          <Field label={t('form.email')} required error={error('personalEmail')}>
            <input type="email" {...form.register('personalEmail')} />
          </Field>
        </div>
        <AddressFields prefix="personal" />
        <button type="submit" className="button primary" disabled={save.isPending}>
          {save.isPending ? t('settings.saving') : t('settings.saveProfile')}
        </button>
      </form>
      <ProvinceLoadFailure />
      {flow.pending && (
        <ConfirmDialog
          title={t('settings.confirmProfile')}
          onCancel={flow.cancel}
          onConfirm={() => void flow.confirm()}
        />
      )}
    </FormProvider>
  );
}
