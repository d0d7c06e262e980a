import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError, NetworkError } from '../../../lib/api-client.ts';
import { dateTime } from '../../../lib/dates.ts';
import { useLiveCourse } from '../../../lib/live.ts';
import { measureClockOffset } from '../api/clock.ts';
import { roundKey, useRound } from '../api/get-round.ts';
import { useSession } from '../../../lib/session.tsx';
import { ManualEntry } from './manual-entry.tsx';
import { QrScanner } from './qr-scanner.tsx';
import { Roster } from './roster.tsx';
import { RoomCodeScreen } from './room-code-screen.tsx';
import { ScanOutcome } from './scan-outcome.tsx';
import { useScanning } from './use-scanning.ts';
import { VoidScan } from './void-scan.tsx';
import { Loading } from '../../../components/status-views.tsx';

/** The page is always dark (spec 001 section 2.4): easier on the eyes in a room, better contrast for the camera view. */
function useForcedDarkTheme() {
  useEffect(() => {
    const root = document.documentElement;
    const before = root.dataset.theme;
    root.dataset.theme = 'dark';
    return () => {
      root.dataset.theme = before ?? 'light';
    };
  }, []);
}

/**
 * The round page (/courses/{id}/rounds/{roundId}, spec 001 section 2.4 and issue 5): the
 * scanner, manual and barcode entry, each outcome large and audible, the counts and the roster,
 * all kept current by the course's live events. While the server says scanning is not open, no
 * camera and no entry: the spec's "Round Not Active", when scanning opens, or (ended) what was
 * recorded, read-only but for an admin's void.
 */
export function RoundPage({ courseId, roundId }: { courseId: string; roundId: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  useForcedDarkTheme();
  const round = useRound(roundId);
  const [showingCode, setShowingCode] = useState(false);
  const isAdmin = useSession().user?.role === 'admin';
  useLiveCourse(courseId, [roundKey(roundId)]);
  const time = useCallback(
    (iso: string) =>
      new Date(iso).toLocaleTimeString(i18n.language === 'th' ? 'th-TH' : 'en-GB', {
        hour: '2-digit',
        minute: '2-digit',
      }),
    [i18n.language],
  );
  // What the page decides by when the connection is gone: the round as last synced.
  const room = useMemo(
    () =>
      round.data && {
        roster: round.data.round.roster,
        scanWindow: round.data.round.scanWindow,
        passKey: round.data.passKey,
      },
    [round.data],
  );
  const scanning = useScanning(roundId, courseId, time, room);
  useEffect(() => {
    // Each visit measures how far this device's clock is from the server's.
    void measureClockOffset().catch(() => undefined);
  }, []);
  const lastCode = useRef<string | null>(null);
  const onCode = useCallback(
    (text: string) => {
      if (text === lastCode.current) return; // the camera sees the same code ten times a second
      lastCode.current = text;
      void scanning.submit(text, 'camera');
    },
    [scanning],
  );

  const back = (
    <button type="button" className="button" onClick={() => navigate(-1)}>
      {t('details.back')}
    </button>
  );
  if (round.isPending) return <Loading />;
  const data = round.data?.round;
  if (round.isError || !data) {
    return (
      <section className="card" role="alert">
        <h1>{t('round.loadFailed')}</h1>
        <p>
          {round.error instanceof ApiError
            ? round.error.message
            : round.error instanceof NetworkError
              ? t('round.loadError')
              : t('round.loadFailed')}
        </p>
        <button type="button" className="button" onClick={() => void round.refetch()}>
          {t('settings.retry')}
        </button>{' '}
        {back}
      </section>
    );
  }
  // Scans this device let in offline count at once (marked in the roster) until the server answers.
  const pendingHere = [...scanning.admitted.keys()].filter(
    (id) => !data.roster.some((person) => person._id === id && person.scannedAt),
  );
  const pendingMissing = pendingHere.filter((id) => data.roster.some((p) => p._id === id && p.enrolled)).length;
  return (
    <section className="round-page">
      <div className="page-heading">
        <div>
          <h1>{t('round.title', { n: data.roundNumber })}</h1>
          <p className="muted">
            {data.courseTopic} · {dateTime(data.roundStartTime, i18n.language)} –{' '}
            {dateTime(data.roundEndTime, i18n.language)}
          </p>
        </div>
        <div className="round-actions">
          {data.scanning === 'open' && (
            <button type="button" className="button primary" onClick={() => setShowingCode(true)}>
              {t('roomCode.show')}
            </button>
          )}
          {data.scanning === 'open' && (
            <button type="button" className="button" aria-pressed={!scanning.muted} onClick={scanning.toggleSound}>
              {scanning.muted ? t('round.soundOff') : t('round.soundOn')}
            </button>
          )}
          {back}
        </div>
      </div>
      {showingCode && (
        <RoomCodeScreen
          roundId={roundId}
          title={`${data.courseTopic} · ${t('dashboard.round', { number: data.roundNumber })}`}
          attended={data.attended + pendingHere.length}
          onClose={() => setShowingCode(false)}
        />
      )}
      <div className="tiles">
        {(
          [
            [t('round.attendees'), data.attended + pendingHere.length],
            [t('round.absentees'), data.absent],
            // Once the round has ended, those missing are the absentees.
            ...(data.scanning === 'ended' ? [] : [[t('round.missing'), data.missing - pendingMissing] as const]),
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="card tile">
            <span>{label}</span>
            <strong>{value}</strong>
          </div>
        ))}
      </div>
      {scanning.waiting > 0 && (
        <p className="banner banner-warning" role="status">
          {t('round.waiting', { count: scanning.waiting })}
        </p>
      )}
      <div className="round-body">
        {data.scanning === 'open' ? (
          <div className="card scan-panel">
            <ScanOutcome outcome={scanning.outcome} />
            <QrScanner onCode={onCode} />
            <ManualEntry onSubmit={scanning.submit} />
          </div>
        ) : (
          <div className="card scan-panel not-active" role="status" data-testid="round-not-active">
            <h2>{t('details.notActiveTitle')}</h2>
            <p>{t('details.notActiveBody')}</p>
            <p className="muted">
              {data.scanning === 'upcoming'
                ? t('round.upcomingNote', { time: dateTime(data.roundStartTime, i18n.language) })
                : t('round.endedNote')}
            </p>
          </div>
        )}
        <Roster round={data} time={time} admitted={scanning.admitted} />
      </div>
      <div className="card scanned-list">
        <h2>{t('round.scannedTitle')}</h2>
        {data.scanned.length === 0 ? (
          <p className="muted">{t('round.noneScanned')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>{t('round.member')}</th>
                <th className="col-id">{t('registrations.id')}</th>
                <th>{t('round.scannedAt')}</th>
                {isAdmin && <th>{t('registrations.actions')}</th>}
              </tr>
            </thead>
            <tbody>
              {data.scanned.map((entry) => (
                <tr key={entry._id}>
                  <td>{entry.user.fullName || entry.user.username}</td>
                  <td className="col-id">
                    <code>{entry.user._id}</code>
                  </td>
                  <td>
                    <span className="when-long">{dateTime(entry.scannedAt, i18n.language)}</span>
                    <span className="when-short">{time(entry.scannedAt)}</span>
                  </td>
                  {isAdmin && (
                    <td>
                      <VoidScan
                        roundId={roundId}
                        member={{
                          _id: entry.user._id,
                          name: entry.user.fullName || entry.user.username || entry.user._id,
                        }}
                        onVoided={() => void round.refetch()}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
