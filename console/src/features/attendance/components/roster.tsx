import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/ui/avatar.tsx';
import type { Round } from '../api/get-round.ts';

const nameOf = (person: { fullName: string | null; username: string | null; _id: string }) =>
  person.fullName || person.username || person._id;

/**
 * Who is expected (enrolled), who is here, and who is still missing: the same for every scanner.
 * Before the round they are not scanned yet; after it, those missing are absent.
 */
export function Roster({
  round,
  time,
  admitted,
}: {
  round: Round;
  time: (iso: string) => string;
  /** Let in by this device while offline, not yet confirmed by the server: shown here, marked. */
  admitted: ReadonlyMap<string, string>;
}) {
  const { t } = useTranslation();
  const [missingTitle, noneMissing] = {
    upcoming: [t('round.notScanned'), t('round.noneMissing')],
    open: [t('round.missing'), t('round.noneMissing')],
    ended: [t('round.absentees'), t('round.noneAbsent')],
  }[round.scanning];
  const people = round.roster.map((person) => {
    const pending = !person.scannedAt && admitted.get(person._id);
    return pending ? { ...person, scannedAt: pending, pending: true } : { ...person, pending: false };
  });
  const missing = people.filter((person) => person.enrolled && !person.scannedAt);
  const here = people.filter((person) => person.scannedAt);
  return (
    <aside className="card roster" aria-label={t('round.roster')}>
      <h2>{t('round.roster')}</h2>
      <p className="roster-counts">
        {t('round.expected')}: <strong>{round.expected}</strong> · {t('round.here')}: <strong>{here.length}</strong> ·{' '}
        {missingTitle}: <strong>{missing.length}</strong>
      </p>
      <h3>{missingTitle}</h3>
      {missing.length === 0 ? (
        <p className="muted">{noneMissing}</p>
      ) : (
        <ul className="roster-list missing">
          {missing.map((person) => (
            <li key={person._id}>
              <Avatar src={person.photo} name={nameOf(person)} /> {nameOf(person)}
            </li>
          ))}
        </ul>
      )}
      <h3>{t('round.here')}</h3>
      <ul className="roster-list here">
        {here.map((person) => (
          <li key={person._id}>
            <Avatar src={person.photo} name={nameOf(person)} /> {nameOf(person)}{' '}
            <span className="muted">{time(person.scannedAt!)}</span>
            {person.late && <span className="badge badge-pending">{t('round.late')}</span>}
            {!person.enrolled && <span className="badge">{t('round.walkIn')}</span>}
            {person.pending && <span className="badge badge-pending">{t('round.offlineMark')}</span>}
          </li>
        ))}
      </ul>
    </aside>
  );
}
