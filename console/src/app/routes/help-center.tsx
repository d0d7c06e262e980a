import { HelpCenterPage } from '../../features/help/components/help-center-page.tsx';

export default function HelpCenterPageRoute() {
  return <HelpCenterPage />;
}
