import { VerifyPage } from '../../features/certificates/components/verify-page.tsx';

export default function VerifyRoute() {
  return <VerifyPage />;
}
