import { useTranslation } from 'react-i18next';
import { PartnerRounds } from '../../../components/partner-rounds.tsx';
import { useAssisting } from '../api/get-assisting.ts';

/**
 * On a member's or partner's home: the rounds of courses they assist in (open now or within the
 * week), each opening the scanner. Nothing at all for someone who assists in none.
 */
export function AssistingRounds() {
  const { t } = useTranslation();
  const assisting = useAssisting();
  const rounds = assisting.data?.rounds ?? [];
  if (rounds.length === 0) return null;
  return <PartnerRounds rounds={rounds} title={t('assistants.roundsTitle')} testId="assisting-rounds" />;
}
