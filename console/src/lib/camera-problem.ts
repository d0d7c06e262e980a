/**
 * Why a camera could not be opened, so the page says what to do about it instead of one message
 * that sends everyone to the permission settings: the page is not a secure context (a phone on
 * plain http: open the https address), the person or the browser refused, the device has no
 * camera, or another app holds it. html5-qrcode passes the browser's error on as text
 * ("Error getting userMedia, error = NotReadableError: ..."), so the name is looked for there too.
 */
export type CameraProblem = 'insecure' | 'denied' | 'missing' | 'busy' | 'failed';

const BY_NAME: [CameraProblem, string[]][] = [
  ['denied', ['NotAllowedError', 'PermissionDeniedError', 'SecurityError']],
  ['missing', ['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError', 'NoCameraError']],
  ['busy', ['NotReadableError', 'TrackStartError', 'AbortError']],
];

/** An error for "this device lists no camera at all". */
export const noCamera = () => Object.assign(new Error('no camera'), { name: 'NoCameraError' });

/** Whether this page may use a camera at all (https, or localhost). */
export const cameraAllowedHere = () => window.isSecureContext && Boolean(navigator.mediaDevices);

export function cameraProblemOf(error: unknown, secure = cameraAllowedHere()): CameraProblem {
  if (!secure) return 'insecure';
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  const text = `${name} ${String(error)}`;
  for (const [problem, names] of BY_NAME) {
    if (names.some((candidate) => text.includes(candidate))) return problem;
  }
  return /secure context|https/i.test(text) ? 'insecure' : 'failed';
}
