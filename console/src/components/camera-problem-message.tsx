import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CameraProblem } from '../lib/camera-problem.ts';

/**
 * The https address of this page when the portal also serves HTTPS (npm start does, for phones
 * on the local network); null when it does not say.
 */
function useSecureOrigin(enabled: boolean) {
  return useQuery({
    queryKey: ['secure-origin'],
    enabled,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      const answer = await fetch('/api/secure-origin');
      if (!answer.ok) return null;
      const { origin } = (await answer.json()) as { origin?: unknown };
      return typeof origin === 'string' && origin.startsWith('https://') ? origin : null;
    },
  }).data;
}

/**
 * What went wrong with the camera and what to do, in the user's language; on a page that is not
 * secure, with a link to the same page over https. A refusal, or a failure of no known kind,
 * shows `fallback` (the spec's words), a refusal with where to allow the camera.
 */
export function CameraProblemMessage({ problem, fallback }: { problem: CameraProblem; fallback: string }) {
  const { t } = useTranslation();
  const origin = useSecureOrigin(problem === 'insecure');
  const secureUrl = origin ? `${origin}${window.location.pathname}${window.location.search}` : null;
  const text = {
    insecure: t('cameraProblem.insecure'),
    denied: `${fallback} ${t('cameraProblem.deniedHow')}`,
    missing: t('cameraProblem.missing'),
    busy: t('cameraProblem.busy'),
    failed: fallback,
  }[problem];
  return (
    <p className="field-error camera-problem" role="alert" data-problem={problem}>
      {text}
      {problem === 'insecure' && secureUrl && (
        <>
          {' '}
          {t('cameraProblem.openSecure')} <a href={secureUrl}>{secureUrl}</a>
        </>
      )}
    </p>
  );
}
