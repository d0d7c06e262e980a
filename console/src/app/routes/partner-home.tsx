import { PartnerHomePage } from '../../features/partner-home/components/partner-home.tsx';

export default function PartnerHomeRoute() {
  return <PartnerHomePage />;
}
