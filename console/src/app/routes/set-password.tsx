import { SetPasswordPage } from '../../features/auth/components/set-password-page.tsx';

export default function SetPasswordRoute() {
  return <SetPasswordPage />;
}
