import { useTranslation } from 'react-i18next';

/** The search box of a list's toolbar: labelled by its placeholder, searched as the person types. */
export function SearchField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      type="search"
      aria-label={label}
      placeholder={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** A list's "Sort by" and "Order" pickers; `sorts` lists the sort fields offered, each with its label. */
export function SortOrder<Sort extends string>({
  sorts,
  value,
  onChange,
}: {
  sorts: readonly (readonly [Sort, string])[];
  value: { sort: Sort; order: 'asc' | 'desc' };
  onChange: (value: { sort: Sort; order: 'asc' | 'desc' }) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <label>
        {t('courses.sortBy')}{' '}
        <select value={value.sort} onChange={(event) => onChange({ ...value, sort: event.target.value as Sort })}>
          {sorts.map(([sort, label]) => (
            <option key={sort} value={sort}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('courses.order')}{' '}
        <select
          value={value.order}
          onChange={(event) => onChange({ ...value, order: event.target.value as 'asc' | 'desc' })}
        >
          <option value="desc">{t('courses.order.desc')}</option>
          <option value="asc">{t('courses.order.asc')}</option>
        </select>
      </label>
    </>
  );
}
