import type { ReactNode } from 'react';
import type { Role } from '@portal/contracts/accounts/account.events';
import { AccessDenied } from '../components/status-views.tsx';
import { useSession } from '../lib/session.tsx';

/**
 * Hides a screen from roles it is not for. Only a courtesy: the API checks every call against the
 * verified session whatever the browser shows.
 */
export function RequireRole({
  roles,
  message,
  children,
}: {
  roles: readonly Role[];
  /** The screen's own refusal sentence, where the spec gives one. */
  message?: string;
  children: ReactNode;
}) {
  const { user } = useSession();
  if (!user || !roles.includes(user.role)) return <AccessDenied roles={roles} message={message} />;
  return children;
}
