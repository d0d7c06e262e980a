import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useChangeAssistants } from '../api/change-assistants.ts';
import { useCourseAssistants } from '../api/get-assistants.ts';

/**
 * The course's scan-only assistants (issue 18), for its creator and admins: approved members or
 * partners, added by username, who may open the course's rounds and scan, and nothing else.
 */
export function CourseAssistants({ courseId }: { courseId: string }) {
  const { t } = useTranslation();
  const list = useCourseAssistants(courseId);
  const { add, remove } = useChangeAssistants(courseId);
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await add.mutateAsync(username);
      setUsername('');
    } catch (failure) {
      setError(
        failure instanceof ApiError ? (failure.body.errors?.username ?? failure.message) : t('assistants.failed'),
      );
    }
  };

  return (
    <section className="card course-assistants" aria-labelledby="assistants-title">
      <h2 id="assistants-title">{t('assistants.title')}</h2>
      <p className="muted">{t('assistants.hint')}</p>
      {list.data && list.data.assistants.length === 0 && <p className="muted">{t('assistants.none')}</p>}
      {list.data && list.data.assistants.length > 0 && (
        <ul className="assistant-list" data-testid="assistant-list">
          {list.data.assistants.map((assistant) => (
            <li key={assistant._id}>
              <span>
                {assistant.fullName || assistant.username || assistant._id}
                {assistant.username && <span className="muted"> · {assistant.username}</span>}
              </span>
              <button
                type="button"
                className="button danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate(assistant._id)}
              >
                {t('assistants.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="assistant-add" onSubmit={(event) => void submit(event)} noValidate>
        <label htmlFor="assistant-username">{t('assistants.username')}</label>
        <div className="assistant-add-row">
          <input
            id="assistant-username"
            name="username"
            autoComplete="off"
            value={username}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'assistant-error' : undefined}
            onChange={(event) => setUsername(event.target.value)}
          />
          <button type="submit" className="button primary" disabled={add.isPending || username.trim() === ''}>
            {t('assistants.add')}
          </button>
        </div>
        {error && (
          <p id="assistant-error" className="field-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
