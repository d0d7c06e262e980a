import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportCheck } from '@portal/contracts/views/import';
import { ApiError } from '../../../lib/api-client.ts';
import { type RowResult, checkImport, importRows, templateHref, useImportCourses } from '../api/imports.ts';

const PREVIEW = 20;

/**
 * Import members from a CSV (issue 23), for admins: choose the file, see row by row what would be
 * created and what is wrong (nothing is created yet), pick a course to enrol them in if any, then
 * import with a progress bar. A file fixed and chosen again is checked again; one imported before
 * shows its rows as already imported, and importing it again creates only the rest.
 */
export function ImportPage() {
  const { t } = useTranslation();
  const id = useId();
  const courses = useImportCourses();
  const [fileName, setFileName] = useState('');
  const [check, setCheck] = useState<ImportCheck | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [courseId, setCourseId] = useState('');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<RowResult[] | null>(null);

  const choose = async (file: File | undefined) => {
    setCheck(null);
    setResults(null);
    setProgress(null);
    setProblem(null);
    if (!file) return;
    setFileName(file.name);
    setBusy(true);
    try {
      setCheck(await checkImport(await file.text()));
    } catch (error) {
      setProblem(error instanceof ApiError ? (error.body.errors?.csv ?? error.message) : t('imports.failed'));
    } finally {
      setBusy(false);
    }
  };
  const start = async () => {
    if (!check) return;
    setBusy(true);
    setProblem(null);
    try {
      setResults(await importRows(check, courseId || null, (done, total) => setProgress({ done, total })));
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : t('imports.interrupted'));
    } finally {
      setBusy(false);
    }
  };

  const invalid = check?.rows.filter((row) => row.status === 'invalid') ?? [];
  const fresh = check?.rows.filter((row) => row.status === 'new') ?? [];
  const count = (status: RowResult['status']) => results?.filter((result) => result.status === status).length ?? 0;
  const refused = results?.filter((result) => result.status === 'invalid') ?? [];
  const notEnrolled = results?.filter((result) => result.enrolled === false).length ?? 0;

  return (
    <section className="card form-card import-page" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{t('imports.title')}</h1>
      <p className="muted">{t('imports.explain')}</p>
      <a className="button" href={templateHref()} download="members-template.csv">
        {t('imports.template')}
      </a>
      <div className={`field${problem && !check ? ' invalid' : ''}`}>
        <label htmlFor={`${id}-file`}>{t('imports.file')}</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          disabled={busy}
          onChange={(event) => void choose(event.target.files?.[0])}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
      </div>
      {problem && (
        <p id={`${id}-problem`} className="field-error" role="alert">
          {problem}
        </p>
      )}
      {busy && !check && <p role="status">{t('imports.checking')}</p>}
      {check && (
        <>
          <p role="status" data-testid="import-summary">
            {t('imports.summary', {
              file: fileName,
              rows: check.summary.rows,
              fresh: check.summary.new,
              invalid: check.summary.invalid,
              imported: check.summary.imported,
            })}
          </p>
          {invalid.length > 0 && (
            <>
              <h2>{t('imports.problems', { count: invalid.length })}</h2>
              <div className="table-wrap">
                <table className="table import-table" data-testid="import-problems">
                  <thead>
                    <tr>
                      <th scope="col">{t('imports.line')}</th>
                      <th scope="col">{t('imports.who')}</th>
                      <th scope="col">{t('imports.whatIsWrong')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {invalid.map((row) => (
                      <tr key={row.line}>
                        <td>{row.line}</td>
                        <td>{row.values.username || row.values.fullName || '—'}</td>
                        <td>
                          <ul className="import-errors">
                            {Object.entries(row.errors).map(([field, message]) => (
                              <li key={field}>
                                <code>{field}</code>: {message}
                              </li>
                            ))}
                          </ul>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
          {fresh.length > 0 && (
            <>
              <h2>{t('imports.toCreate', { count: fresh.length })}</h2>
              <ul className="import-preview">
                {fresh.slice(0, PREVIEW).map((row) => (
                  <li key={row.line}>
                    {row.line}: {row.values.fullName || row.values.username} ({row.values.personalEmail})
                  </li>
                ))}
                {fresh.length > PREVIEW && <li>{t('imports.more', { count: fresh.length - PREVIEW })}</li>}
              </ul>
            </>
          )}
          <div className="field">
            <label htmlFor={`${id}-course`}>{t('imports.course')}</label>
            <select
              id={`${id}-course`}
              value={courseId}
              onChange={(event) => setCourseId(event.target.value)}
              disabled={busy}
            >
              <option value="">{t('imports.noCourse')}</option>
              {courses.data?.courses.map((course) => (
                <option key={course._id} value={course._id}>
                  {course.courseTopic}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="button primary"
            disabled={busy || fresh.length + check.summary.imported === 0 || results !== null}
            onClick={() => void start()}
          >
            {t('imports.start', { count: fresh.length })}
          </button>
        </>
      )}
      {progress && (
        <div className="import-progress">
          <label htmlFor={`${id}-progress`}>{t('imports.progress', progress)}</label>
          <progress id={`${id}-progress`} max={Math.max(progress.total, 1)} value={progress.done} />
        </div>
      )}
      {results && (
        <div role="status" data-testid="import-done">
          <p>
            {t('imports.done', { created: count('created'), imported: count('imported'), refused: refused.length })}
          </p>
          {notEnrolled > 0 && <p>{t('imports.notEnrolled', { count: notEnrolled })}</p>}
          {refused.length > 0 && (
            <ul className="import-errors">
              {refused.map((result) => (
                <li key={result.line}>
                  {t('imports.line')} {result.line}: {Object.values(result.errors).join(' ')}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
