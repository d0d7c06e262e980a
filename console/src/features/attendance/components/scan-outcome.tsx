import { useTranslation } from 'react-i18next';

/** The member's photo from the roster, when they have one: the person at the door compares faces. */
type Face = { photo?: string | null };

export type Outcome =
  | ({ tone: 'accepted'; name: string; late: boolean; walkIn: boolean; offline?: boolean } & Face)
  | ({ tone: 'duplicate'; name: string; at: string; offline?: boolean } & Face)
  | ({ tone: 'refused'; name: string | null; message: string; offline?: boolean } & Face)
  /** Offline, someone not enrolled: a walk-in the server may still refuse (the course may be full). */
  | ({ tone: 'requested'; name: string | null; offline: true } & Face)
  | { tone: 'queued'; count: number }
  /** The queue was sent; where the server answered otherwise than the device did, each difference. */
  | { tone: 'sent'; count: number; corrections: string[] };

const CLASS: Record<Outcome['tone'], string> = {
  accepted: 'accepted',
  duplicate: 'duplicate',
  refused: 'refused',
  requested: 'queued',
  queued: 'queued',
  sent: 'sent',
};

/** The last scan's outcome in large text and colour, announced at once to screen readers. */
export function ScanOutcome({ outcome }: { outcome: Outcome | null }) {
  const { t } = useTranslation();
  // The same element before and after the first scan, so it is a live region before it changes.
  if (!outcome)
    return (
      <div className="scan-outcome idle" aria-live="assertive" aria-atomic="true">
        {t('round.ready')}
      </div>
    );
  const [title, detail] =
    outcome.tone === 'accepted'
      ? [
          `✓ ${outcome.name}`,
          [t('round.accepted'), outcome.late && t('round.late'), outcome.walkIn && t('round.walkIn')]
            .filter(Boolean)
            .join(' · '),
        ]
      : outcome.tone === 'duplicate'
        ? [`↺ ${outcome.name}`, t('round.alreadyAt', { time: outcome.at })]
        : outcome.tone === 'refused'
          ? [`✕ ${outcome.name ?? t('round.unknown')}`, outcome.message]
          : outcome.tone === 'requested'
            ? [`… ${outcome.name ?? t('round.unknown')}`, t('round.walkInRequested')]
            : outcome.tone === 'queued'
              ? [`… ${t('round.queuedTitle')}`, t('round.queued', { count: outcome.count })]
              : [`✓ ${t('round.sentTitle')}`, t('round.sent', { count: outcome.count })];
  const offline = 'offline' in outcome && outcome.offline;
  const corrections = outcome.tone === 'sent' ? outcome.corrections : [];
  return (
    <div
      className={`scan-outcome ${CLASS[outcome.tone]}${corrections.length ? ' corrected' : ''}`}
      role="alert"
      aria-live="assertive"
      aria-atomic="true"
      data-testid="scan-outcome"
    >
      {'photo' in outcome && outcome.photo && (
        <img className="scan-face" src={outcome.photo} alt="" data-testid="scan-face" />
      )}
      <strong>{title}</strong>
      <span>{detail}</span>
      {offline && (
        <span className="offline-mark" data-testid="offline-mark">
          {t('round.offlineMark')}
        </span>
      )}
      {corrections.length > 0 && (
        <ul className="corrections" data-testid="corrections">
          {corrections.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
