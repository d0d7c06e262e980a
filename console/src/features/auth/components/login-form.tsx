import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useNotice } from '../../../components/ui/use-notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useLogin } from '../api/login.ts';
import { homeOf, useSession } from '../../../lib/session.tsx';
import { nextPage } from '../../../lib/next-page.ts';

const SUCCESS_DIALOG_MS = 1200;

/**
 * Sign-in (spec 000 sections 4 and 8): both fields required; success shows เข้าสู่ระบบสำเร็จ and
 * lands by role; a pending or rejected account gets the access-denied warning and stays signed out.
 */
export function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const session = useSession();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { show: setNotice, dialog } = useNotice();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!username.trim() || !password) {
      setNotice({ tone: 'warning', title: t('dialog.missingFields'), message: t('rules::login.required') });
      return;
    }
    login.mutate(
      { username: username.trim(), password },
      {
        onSuccess: (answer) => {
          const user = session.signIn(answer.partner);
          // Back to the page that asked for a sign-in, if any; otherwise the person's home.
          const land = () => navigate(nextPage(params.get('next')) ?? homeOf(user.role), { replace: true });
          setNotice({
            tone: 'success',
            title: t('dialog.loginSuccess'),
            message: t('dialog.welcome', { name: user.fullName || user.username }),
            then: land,
          });
          setTimeout(land, SUCCESS_DIALOG_MS);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 403 && error.body.status) {
            void session.signOut();
            setNotice({
              tone: 'warning',
              title: t('dialog.accessDenied'),
              message: `${error.body.status}: ${error.message}`,
              then: () => navigate('/', { replace: true }),
            });
          } else if (error instanceof ApiError) {
            setNotice({ tone: 'error', title: t('dialog.loginFailed'), message: error.message });
          } else {
            setNotice({
              tone: 'error',
              title: t('dialog.error'),
              message: `${t('dialog.noServer')} (${error.message})`,
            });
          }
        },
      },
    );
  }

  return (
    <form className="card login-card" onSubmit={submit} noValidate>
      <h1>{t('login.title')}</h1>
      <label>
        {t('login.username')}
        <input name="username" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
      </label>
      <label>
        {t('login.password')}
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <button type="submit" className="button primary" disabled={login.isPending}>
        {login.isPending ? t('login.sending') : t('login.submit')}
      </button>
      <div className="login-links">
        <Link to="/register">{t('login.registerMember')}</Link>
        <Link to="/registeradmin">{t('login.registerPartner')}</Link>
      </div>
      {dialog}
    </form>
  );
}
