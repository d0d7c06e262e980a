import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScanMethod } from '../api/send-scan.ts';

/** Faster than anyone types: a USB barcode scanner "types" a whole code in a few milliseconds a key. */
const SCANNER_MS_PER_KEY = 35;

/**
 * Manual entry (spec 001 section 2.4): a member id or username and Mark Attendance. A USB
 * barcode scanner types into the same field and presses Enter, which submits it by itself.
 */
export function ManualEntry({
  onSubmit,
}: {
  onSubmit: (userId: string, method: ScanMethod) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const firstKey = useRef<number | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const userId = value.trim();
    if (!userId) return setProblem(t('rules::attendance.userIdRequired'));
    const elapsed = firstKey.current === null ? Infinity : performance.now() - firstKey.current;
    const method: ScanMethod = userId.length > 3 && elapsed / userId.length < SCANNER_MS_PER_KEY ? 'barcode' : 'typed';
    firstKey.current = null;
    const refused = await onSubmit(userId, method);
    setProblem(refused);
    if (!refused) setValue('');
  }

  return (
    <form className="manual-entry" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor="manual-user-id">{t('round.manualLabel')}</label>
      <div className="manual-row">
        <input
          id="manual-user-id"
          autoComplete="off"
          value={value}
          onKeyDown={() => {
            firstKey.current ??= performance.now();
          }}
          onChange={(event) => {
            setValue(event.target.value);
            if (!event.target.value) firstKey.current = null;
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby="manual-user-id-note"
        />
        <button type="submit" className="button primary">
          {t('round.markAttendance')}
        </button>
      </div>
      {problem && (
        <small id="manual-user-id-note" className="field-error" role="alert">
          {problem}
        </small>
      )}
    </form>
  );
}
