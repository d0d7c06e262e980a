import { AssistingRounds } from '../../features/assistants/components/assisting-rounds.tsx';
import { PartnerHomePage } from '../../features/partner-home/components/partner-home.tsx';

export default function PartnerHomeRoute() {
  return (
    <>
      <PartnerHomePage />
      <AssistingRounds />
    </>
  );
}
