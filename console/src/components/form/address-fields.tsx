import { type FieldValues, type Path, type PathValue, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Province } from '@portal/contracts/views/address';
import { useProvinces } from '../../lib/thai-addresses.ts';
import { Field } from './field.tsx';

type Prefix = 'personal' | 'company';

/**
 * Address, province, district, subdistrict and postal code (spec 000 section 4): choosing a
 * province clears the district, subdistrict and postal code; choosing a district clears the
 * subdistrict and postal code; the subdistrict fills the postal code, which is read-only. Each
 * picker is disabled until the one above it is chosen. Thai names are what is stored; the
 * English console shows English names. With `withIds`, the ids are set too (the partner form posts them).
 */
export function AddressFields({
  prefix,
  required,
  withIds,
}: {
  prefix: Prefix;
  required?: boolean;
  withIds?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const provinces = useProvinces();
  const form = useFormContext<FieldValues>();
  const name = (part: string) => `${prefix}${part}` as Path<FieldValues>;
  const error = (part: string) => form.formState.errors[name(part)]?.message as string | undefined;
  const set = (part: string, value: unknown) =>
    form.setValue(name(part), value as PathValue<FieldValues, Path<FieldValues>>, {
      shouldValidate: form.formState.isSubmitted || value !== '',
      shouldDirty: true,
    });
  const label = (place: { name_th: string; name_en: string }) =>
    i18n.language === 'th' || !place.name_en ? place.name_th : place.name_en;

  const list: Province[] = provinces.data ?? [];
  const province = list.find((p) => p.name_th === form.watch(name('Province')));
  const district = province?.amphure.find((a) => a.name_th === form.watch(name('District')));
  const subdistrict = district?.tambon.find((s) => s.name_th === form.watch(name('Subdistrict')));

  function chooseProvince(id: string) {
    const chosen = list.find((p) => String(p.id) === id);
    set('Province', chosen?.name_th ?? '');
    for (const part of ['District', 'Subdistrict', 'PostalCode']) set(part, '');
    if (withIds) {
      set('ProvinceId', chosen?.id ?? '');
      set('DistrictId', '');
      set('SubdistrictId', '');
    }
  }
  function chooseDistrict(id: string) {
    const chosen = province?.amphure.find((a) => String(a.id) === id);
    set('District', chosen?.name_th ?? '');
    set('Subdistrict', '');
    set('PostalCode', '');
    if (withIds) {
      set('DistrictId', chosen?.id ?? '');
      set('SubdistrictId', '');
    }
  }
  function chooseSubdistrict(id: string) {
    const chosen = district?.tambon.find((s) => String(s.id) === id);
    set('Subdistrict', chosen?.name_th ?? '');
    set('PostalCode', chosen?.zip_code ? String(chosen.zip_code) : '');
    if (withIds) set('SubdistrictId', chosen?.id ?? '');
  }

  return (
    <>
      <Field label={t('form.address')} required={required} error={error('Address')}>
        <textarea rows={2} {...form.register(name('Address'))} />
      </Field>
      <div className="field-row">
        <Field label={t('form.province')} required={required} error={error('Province')}>
          <select
            name={name('Province')}
            value={province ? String(province.id) : ''}
            disabled={provinces.isPending}
            onChange={(event) => chooseProvince(event.target.value)}
          >
            <option value="">{provinces.isPending ? t('form.loading') : t('form.chooseProvince')}</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {label(p)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('form.district')} required={required} error={error('District')}>
          <select
            name={name('District')}
            value={district ? String(district.id) : ''}
            disabled={!province}
            onChange={(event) => chooseDistrict(event.target.value)}
          >
            <option value="">{t('form.chooseDistrict')}</option>
            {province?.amphure.map((a) => (
              <option key={a.id} value={a.id}>
                {label(a)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="field-row">
        <Field label={t('form.subdistrict')} required={required} error={error('Subdistrict')}>
          <select
            name={name('Subdistrict')}
            value={subdistrict ? String(subdistrict.id) : ''}
            disabled={!district}
            onChange={(event) => chooseSubdistrict(event.target.value)}
          >
            <option value="">{t('form.chooseSubdistrict')}</option>
            {district?.tambon.map((s) => (
              <option key={s.id} value={s.id}>
                {label(s)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('form.postalCode')}>
          <input readOnly tabIndex={-1} {...form.register(name('PostalCode'))} />
        </Field>
      </div>
    </>
  );
}
