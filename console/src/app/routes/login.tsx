import { useTranslation } from 'react-i18next';
import { LoginForm } from '../../features/auth/components/login-form.tsx';

export default function LoginRoute() {
  const { t } = useTranslation();
  return (
    <div className="login-page">
      <p className="tagline">{t('app.tagline')}</p>
      <LoginForm />
    </div>
  );
}
