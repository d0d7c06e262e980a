import { useTranslation } from 'react-i18next';

export type Outcome =
  | { tone: 'accepted'; name: string; late: boolean; walkIn: boolean }
  | { tone: 'duplicate'; name: string; at: string }
  | { tone: 'refused'; name: string | null; message: string }
  | { tone: 'queued'; count: number }
  | { tone: 'sent'; count: number };

/** The last scan's outcome in large text and colour, announced at once to screen readers. */
export function ScanOutcome({ outcome }: { outcome: Outcome | null }) {
  const { t } = useTranslation();
  if (!outcome) return <div className="scan-outcome idle">{t('round.ready')}</div>;
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
          : outcome.tone === 'queued'
            ? [`… ${t('round.queuedTitle')}`, t('round.queued', { count: outcome.count })]
            : [`✓ ${t('round.sentTitle')}`, t('round.sent', { count: outcome.count })];
  return (
    <div className={`scan-outcome ${outcome.tone}`} role="alert" aria-live="assertive" data-testid="scan-outcome">
      <strong>{title}</strong>
      <span>{detail}</span>
    </div>
  );
}
