import type { ScanAnswer } from '../api/send-scan.ts';
import type { OfflineVerdict } from './decide-offline.ts';

type Translate = (key: string, values?: Record<string, unknown>) => string;

const admitted = (verdict: OfflineVerdict) => verdict.decision === 'accepted' || verdict.decision === 'walkInRequested';

/**
 * Where the server's answer to a scan decided offline differs from what the device said at the
 * door (issue 18), the sentence the scanner shows: "Ann: the server already had her at 09:02
 * from another device". Null when they agree (both let in, or both refused).
 */
export function correctionOf(
  verdict: OfflineVerdict | undefined,
  answer: ScanAnswer | null,
  t: Translate,
  time: (iso: string) => string,
): string | null {
  if (!verdict) return null;
  const name =
    answer?.member?.fullName || verdict.name || answer?.member?._id || verdict.memberId || t('round.unknown');
  if (!answer) return t('round.correction.failed', { name });
  if (answer.outcome === 'accepted') {
    if (verdict.decision === 'walkInRequested') return t('round.correction.walkInAccepted', { name });
    return admitted(verdict) ? null : t('round.correction.accepted', { name });
  }
  if (!admitted(verdict)) return null;
  if (answer.reason === 'duplicate' && answer.firstScannedAt) {
    return t('round.correction.duplicate', { name, time: time(answer.firstScannedAt) });
  }
  return t('round.correction.refused', { name, message: answer.message });
}
