import { type ChangeEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CourseImage } from '../../../components/course-image.tsx';

/** Spec 001 section 5: larger images are refused (and the server refuses them too). */
const LIMIT = 10 * 1024 * 1024;

/**
 * The course image: images only, a preview, and Remove Image, which only clears the local choice.
 * The saved image shows until another is chosen.
 */
export function CourseImageField(props: {
  current: string | null;
  file: File | null;
  onFile: (file: File | null) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const preview = useMemo(() => (props.file ? URL.createObjectURL(props.file) : null), [props.file]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setProblem(null);
    if (chosen && !chosen.type.startsWith('image/')) {
      event.target.value = '';
      setProblem(t('rules::image.invalid'));
      return props.onFile(null);
    }
    if (chosen && chosen.size > LIMIT) {
      event.target.value = '';
      setProblem(t('rules::course.imageTooLarge'));
      return props.onFile(null);
    }
    props.onFile(chosen);
  }

  function clear() {
    if (input.current) input.current.value = '';
    setProblem(null);
    props.onFile(null);
  }

  return (
    <div className={`field${problem ? ' invalid' : ''}`}>
      <label htmlFor={id}>{t('courseForm.image')}</label>
      <div className="course-image-field">
        {preview ? (
          <img className="course-image" src={preview} alt={t('courseForm.preview')} />
        ) : (
          <CourseImage src={props.current} />
        )}
        <div>
          <input
            ref={input}
            id={id}
            type="file"
            accept="image/*"
            onChange={choose}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-note`}
          />
          {props.file && (
            <button type="button" className="button small" onClick={clear}>
              {t('courseForm.removeImage')}
            </button>
          )}
          <small id={`${id}-note`} className={problem ? 'field-error' : 'hint'} role={problem ? 'alert' : undefined}>
            {problem ?? t('courseForm.imageHint')}
          </small>
        </div>
      </div>
    </div>
  );
}
