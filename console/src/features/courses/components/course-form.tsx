import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Field } from '../../../components/form/field.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError, NetworkError } from '../../../lib/api-client.ts';
import { toLocalInput } from '../../../lib/dates.ts';
import type { CourseWithRounds } from '../api/get-course.ts';
import { type SaveOutcome, saveCourse } from '../api/save-course.ts';
import { type CourseFormInput, type CourseFormValues, CourseFormSchema } from './course-form-schema.ts';
import { CourseImageField } from './course-image-field.tsx';
import { RoundFields } from './round-fields.tsx';

/** Spec 001 section 9: the create-course toast stays 2.5 seconds; warnings stay longer. */
const CREATED_TOAST_MS = 2500;
const WARNING_MS = 8000;

const blank: CourseFormInput = { courseTopic: '', courseDescription: '', maxPeople: 0, status: 'private', rounds: [] };

const valuesOf = (course: CourseWithRounds, serverTime = new Date().toISOString()): CourseFormInput => ({
  courseTopic: course.courseTopic,
  courseDescription: course.courseDescription,
  maxPeople: course.maxPeople,
  status: course.status,
  rounds: course.rounds.map((round) => ({
    roundId: round._id,
    start: toLocalInput(round.roundStartTime),
    end: toLocalInput(round.roundEndTime),
    // By the server's clock: a round that has started is history and cannot be changed here.
    started: Date.parse(round.roundStartTime) <= Date.parse(serverTime),
  })),
});

/**
 * The course form (spec 001 section 2.2): create when `course` is null, otherwise update. Creating
 * asks first. Saving sends the text, then the image, then the rounds; a failed image or round does
 * not undo the rest and is reported as a warning.
 */
export function CourseForm({
  course,
  serverTime,
  onTopicChange,
}: {
  course: CourseWithRounds | null;
  serverTime?: string;
  /** Told the topic as it is typed (the create page's heading follows it). */
  onTopicChange?: (topic: string) => void;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const client = useQueryClient();
  const form = useForm<CourseFormInput, unknown, CourseFormValues>({
    resolver: zodResolver(CourseFormSchema),
    mode: 'onTouched',
    defaultValues: course ? valuesOf(course, serverTime) : blank,
  });
  const topic = useWatch({ control: form.control, name: 'courseTopic' });
  useEffect(() => onTopicChange?.(topic ?? ''), [topic, onTopicChange]);
  const [image, setImage] = useState<File | null>(null);
  const [asking, setAsking] = useState<CourseFormValues | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editing = course !== null;
  const error = (field: 'courseTopic' | 'courseDescription' | 'maxPeople' | 'status') =>
    form.formState.errors[field]?.message;

  function warnings(outcome: SaveOutcome) {
    if (outcome.imageFailed) {
      toast('error', t(editing ? 'courseForm.imageFailedUpdate' : 'courseForm.imageFailedCreate'), WARNING_MS);
    }
    for (const { reason } of outcome.roundFailures) toast('error', `${t('rounds.failed')} ${reason}`, WARNING_MS);
  }

  async function save(values: CourseFormValues) {
    setAsking(null);
    setBusy(true);
    try {
      const outcome = await saveCourse(values, image, course);
      await client.invalidateQueries({ queryKey: ['courses'] });
      toast('success', outcome.message, editing ? undefined : CREATED_TOAST_MS);
      warnings(outcome);
      form.reset(blank);
      setImage(null);
      navigate(`/courses/${outcome.id}`, { state: { created: !editing } });
    } catch (caught) {
      if (caught instanceof ApiError) {
        for (const [field, message] of Object.entries(caught.body.errors ?? {})) {
          form.setError(field as keyof CourseFormInput, { message });
        }
        setFailure(caught.body.message || t(editing ? 'courseForm.updateFailed' : 'courseForm.createFailed'));
      } else {
        setFailure(
          t(
            caught instanceof NetworkError
              ? editing
                ? 'courseForm.updateNetwork'
                : 'courseForm.createNetwork'
              : 'details.unexpected',
          ),
        );
      }
    } finally {
      setBusy(false);
    }
  }

  const submit = form.handleSubmit((values) => (editing ? void save(values) : setAsking(values)));

  return (
    <FormProvider {...form}>
      <form className="card form-card course-form" onSubmit={submit} noValidate>
        <Field label={t('courseForm.topic')} required error={error('courseTopic')}>
          <input maxLength={100} {...form.register('courseTopic')} />
        </Field>
        <Field label={t('courseForm.description')} required error={error('courseDescription')}>
          <textarea rows={5} maxLength={1000} {...form.register('courseDescription')} />
        </Field>
        <div className="field-row">
          <Field
            label={t('courseForm.maxPeople')}
            required
            hint={t('courseForm.maxPeopleHint')}
            error={error('maxPeople')}
          >
            <input type="number" min={0} step={1} inputMode="numeric" {...form.register('maxPeople')} />
          </Field>
          <Field label={t('courseForm.status')} error={error('status')}>
            <select {...form.register('status')}>
              <option value="public">{t('courseForm.public')}</option>
              <option value="private">{t('courseForm.private')}</option>
            </select>
          </Field>
        </div>
        <CourseImageField current={course?.courseImage ?? null} file={image} onFile={setImage} />
        <RoundFields />
        <div className="form-footer">
          <button type="button" className="button" onClick={() => navigate('/admin/courses/')}>
            {t('courseForm.cancel')}
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy
              ? t(editing ? 'courseForm.updating' : 'courseForm.creating')
              : t(editing ? 'courseForm.update' : 'courseForm.create')}
          </button>
        </div>
      </form>
      {asking && (
        <ConfirmDialog
          title={t('courseForm.confirmCreate')}
          onCancel={() => setAsking(null)}
          onConfirm={() => void save(asking)}
        >
          {asking.courseTopic}
        </ConfirmDialog>
      )}
      {failure && (
        <Dialog tone="error" title={t('courses.errorTitle')} onClose={() => setFailure(null)}>
          {failure}
        </Dialog>
      )}
    </FormProvider>
  );
}
