import { useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/form/field.tsx';
import { type CourseFormInput, roundNumbers } from './course-form-schema.ts';

/**
 * The course's rounds: add, change and cancel, each numbered in time order. Nothing is sent until
 * the form is saved; a round whose time has not been saved yet says so.
 */
export function RoundFields() {
  const { t } = useTranslation();
  const form = useFormContext<CourseFormInput>();
  const rounds = useFieldArray({ control: form.control, name: 'rounds', keyName: 'key' });
  const values = form.watch('rounds');
  const numbers = roundNumbers(values);
  const errors = form.formState.errors.rounds;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <fieldset className="rounds-fields">
      <legend>{t('rounds.title')}</legend>
      <p className="hint">{t('rounds.hint', { zone })}</p>
      {rounds.fields.length === 0 && <p className="muted">{t('rounds.none')}</p>}
      <ol className="round-list">
        {rounds.fields.map((field, index) => (
          <li key={field.key} className={field.started ? 'round-row round-started' : 'round-row'}>
            <strong>
              {t('rounds.number', { n: numbers[index] })}
              {!field.roundId && <span className="badge badge-pending">{t('rounds.new')}</span>}
            </strong>
            <Field label={t('rounds.start')} required error={errors?.[index]?.start?.message}>
              <input type="datetime-local" readOnly={field.started} {...form.register(`rounds.${index}.start`)} />
            </Field>
            <Field label={t('rounds.end')} required error={errors?.[index]?.end?.message}>
              <input type="datetime-local" readOnly={field.started} {...form.register(`rounds.${index}.end`)} />
            </Field>
            {field.started ? (
              <p className="hint">{t('rounds.started')}</p>
            ) : (
              <button
                type="button"
                className="button small danger"
                onClick={() => rounds.remove(index)}
                aria-label={`${t('rounds.remove')}: ${t('rounds.number', { n: numbers[index] })}`}
              >
                {t('rounds.remove')}
              </button>
            )}
          </li>
        ))}
      </ol>
      <button type="button" className="button" onClick={() => rounds.append({ start: '', end: '' })}>
        {t('rounds.add')}
      </button>
    </fieldset>
  );
}
