import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.tsx';
import { useProfile } from '../../../lib/profile.ts';
import { PasswordForm } from './password-form.tsx';
import { ProfileForm } from './profile-form.tsx';
import { Loading } from '../../../components/status-views.tsx';

/**
 * Account settings (/setting): profile photo, personal information, password (spec 000 screen 4),
 * then what the route adds of other features (`more`: the calendar feed).
 */
export function SettingsPage({ more }: { more?: ReactNode }) {
  const { t } = useTranslation();
  const { user, storedInvalid } = useSession();
  const profile = useProfile(user?.id ?? '');
  if (!user) {
    return (
      <p className="card" role="alert">
        {t(storedInvalid ? 'settings.invalidStoredUser' : 'settings.notSignedIn')}
      </p>
    );
  }
  if (profile.isPending) return <Loading />;
  if (profile.isError || !profile.data.member) {
    const reason = profile.error instanceof ApiError ? profile.error.message : t('settings.fetchError');
    return (
      <div className="card form-card" role="alert">
        <p>{reason || t('settings.fetchFailed')}</p>
        <button type="button" className="button" onClick={() => void profile.refetch()}>
          {t('settings.retry')}
        </button>
      </div>
    );
  }
  return (
    <div className="settings">
      <h1>{t('screen.setting')}</h1>
      <ProfileForm member={profile.data.member} />
      <PasswordForm accountId={user.id} />
      {more}
    </div>
  );
}
